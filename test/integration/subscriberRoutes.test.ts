// The operator API for subscribers: who may call it, what it refuses and with which words, and
// that answers never carry a target or a secret but the one just made.
import request from 'supertest';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { appendNow, subscribersApp } from '../support/notifyFixture.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';
import { INGEST_TOKEN } from '../support/testServers.ts';

let t: TestDatabase;
let app: ReturnType<typeof subscribersApp>;
const auth = { Authorization: `Bearer ${INGEST_TOKEN}` };

beforeAll(async () => {
  t = await freshDatabase();
  app = subscribersApp(t);
  await appendNow(t, [pageConfigured('acme'), monitorConfigured('acme', 1, { name: 'API' })]);
});
afterAll(() => t.close());

const post = (body: unknown, slug = 'acme') =>
  request(app)
    .post(`/v1/pages/${slug}/subscribers`)
    .set(auth)
    .send(body as object);

describe('POST /v1/pages/{slug}/subscribers', () => {
  it('needs INGEST_TOKEN and an existing page', async () => {
    const none = await request(app).post('/v1/pages/acme/subscribers').send({});
    expect([none.status, none.body]).toEqual([401, { error: 'unauthorized' }]);
    const wrong = await request(app)
      .get('/v1/pages/acme/subscribers')
      .set({ Authorization: 'Bearer not-the-token-at-all' });
    expect([wrong.status, wrong.body]).toEqual([401, { error: 'unauthorized' }]);
    const unknown = await post({ channel: 'slack', url: 'https://hooks.example.com/x' }, 'nope');
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'status page not found' }]);
  });

  it('refuses bad input with the field and the reason', async () => {
    const cases: [unknown, { path: string; message: string }[]][] = [
      [
        { channel: 'webhook', url: 'http://hooks.example.com/x' },
        [{ path: 'url', message: 'must be an https URL' }],
      ],
      [
        { channel: 'pager', url: 'https://x.example.com' },
        [{ path: 'channel', message: expect.stringContaining("Expected 'webhook'") as string }],
      ],
      [
        { channel: 'email', email: 'not-an-address' },
        [{ path: 'email', message: 'must be an email address' }],
      ],
      [
        { channel: 'email', email: 'ops@example.com', monitor_states: true },
        [{ path: 'monitor_states', message: 'email subscribers receive no monitor states' }],
      ],
      [
        { channel: 'slack', url: 'https://hooks.example.com/x', format: 'statuspage' },
        [{ path: 'format', message: 'only webhook subscribers have a format' }],
      ],
      [
        { channel: 'slack', url: 'https://hooks.example.com/x', components: ['API', 'Nope'] },
        [{ path: 'components', message: 'unknown component: Nope' }],
      ],
    ];
    for (const [body, details] of cases) {
      const res = await post(body);
      expect([res.status, res.body]).toEqual([400, { error: 'invalid payload', details }]);
    }
    const malformed = await request(app)
      .post('/v1/pages/acme/subscribers')
      .set({ ...auth, 'Content-Type': 'application/json' })
      .send('{"channel":');
    expect([malformed.status, malformed.body]).toEqual([400, { error: 'malformed body' }]);
  });

  it('creates each channel active at once, a secret only for webhooks, and refuses a second of the same target', async () => {
    const hook = await post({ channel: 'webhook', url: 'https://hooks.example.com/a', format: 'statuspage' });
    expect(hook.status).toBe(201);
    expect(hook.headers['cache-control']).toBe('no-store');
    expect(hook.body).toEqual({
      id: expect.stringMatching(/^sub_[A-Za-z0-9_-]{22}$/) as string,
      secret: expect.stringMatching(/^whsec_/) as string,
    });
    const mail = await post({ channel: 'email', email: ' Ops@Example.com ', components: ['API'] });
    expect(Object.keys(mail.body as object)).toEqual(['id']);
    const again = await post({ channel: 'email', email: 'ops@example.com' });
    expect([again.status, again.body]).toEqual([409, { error: 'subscriber exists' }]);
    const listed = await request(app).get('/v1/pages/acme/subscribers').set(auth);
    expect(listed.body).toEqual({
      subscribers: [
        expect.objectContaining({
          channel: 'webhook',
          target_hint: 'https://hooks.example.com/…',
          format: 'statuspage',
          origin: 'operator',
          state: 'active',
          quarantined_at: null,
        }),
        expect.objectContaining({
          channel: 'email',
          target_hint: '…@Example.com',
          components: ['API'],
          monitor_states: false,
        }),
      ],
    });
    expect(JSON.stringify(listed.body)).not.toMatch(/Ops@|hooks\.example\.com\/a|whsec_/);
    const rotate = await request(app)
      .post(`/v1/pages/acme/subscribers/${(mail.body as { id: string }).id}/rotate-secret`)
      .set(auth);
    expect([rotate.status, rotate.body]).toEqual([409, { error: 'not a webhook subscriber' }]);
  });

  it('erases a subscriber and everything of it', async () => {
    const { id } = (await post({ channel: 'discord', url: 'https://discord.example.com/api/webhooks/1/x' }))
      .body as { id: string };
    await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
    const gone = await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth);
    expect([gone.status, gone.body]).toEqual([404, { error: 'not found' }]);
    for (const path of ['deliveries']) {
      const res = await request(app).get(`/v1/pages/acme/subscribers/${id}/${path}`).set(auth);
      expect(res.status).toBe(404);
    }
    const left = await t.db.oneFirst(
      sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM subscribers WHERE id = ${id}`,
    );
    expect(left).toBe(0);
  });
});
