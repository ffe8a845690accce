// The Statuspage documents' times of the page's latest event (page and component `updated_at`, the
// `created_at` of a monitor without checks) are filled in when read: checks that change no status
// move them in every answer and leave the stored documents as they were.
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPDATED_SLOT_JSON } from '../../projections/render/updatedSlot.ts';
import { statuspageDocuments } from '../../projections/statuspage/documents.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { statuspageKey } from '../../projections/statuspage/storage.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { projectAll } from '../support/projectAll.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

const SLUG = 'calm';
const CONFIGURED = '2026-11-22T10:00:00Z';
const FIRST_CHECK = '2026-11-22T10:30:00Z';
const LATEST_CHECK = '2026-11-22T11:30:00Z';

describe('Statuspage documents and the page’s latest event', () => {
  let env: ProjectorEnv;
  let app: ReturnType<typeof buildApp>;

  const storedDocuments = async () => {
    const tag = await env.tagOf(partitionOf(SLUG, env.partitions));
    const key = statuspageKey({ tag, slug: SLUG });
    return Promise.all(statuspageDocuments.map((name) => env.redis.hgetBuffer(key, name)));
  };
  const components = async () => {
    const res = await request(app).get(`/s/${SLUG}/api/v2/components.json`);
    expect(res.status).toBe(200);
    const body = res.body as {
      page: { updated_at: string };
      components: { id: string; created_at: string; updated_at: string }[];
    };
    return {
      etag: String(res.headers['etag']),
      times: [body.page.updated_at, ...body.components.map((c) => `${c.id} ${c.created_at} ${c.updated_at}`)],
    };
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:00Z' });
    const { accepted } = await env.append(
      pageConfigured(SLUG, {}, CONFIGURED),
      monitorConfigured(SLUG, 1, { name: 'API' }, CONFIGURED),
      monitorConfigured(SLUG, 2, { name: 'DNS' }, CONFIGURED), // never checked
      check(SLUG, 1, FIRST_CHECK),
    );
    await projectAll(env, accepted);
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    app = buildApp({ redis: env.redis, prefix: env.prefix, config, log: pino({ level: 'silent' }) });
  });
  afterAll(() => env.close());

  it('answers the latest check’s time after checks alone, from stored documents that do not hold it', async () => {
    const before = await components();
    expect(before.times).toEqual([
      FIRST_CHECK,
      `1 ${FIRST_CHECK} ${FIRST_CHECK}`,
      `2 ${FIRST_CHECK} ${FIRST_CHECK}`,
    ]);
    const stored = await storedDocuments();

    const { accepted } = await env.append(
      check(SLUG, 1, '2026-11-22T11:00:00Z'),
      check(SLUG, 1, LATEST_CHECK),
    );
    await projectAll(env, accepted);

    const after = await components();
    expect(after.times).toEqual([
      LATEST_CHECK,
      `1 ${FIRST_CHECK} ${LATEST_CHECK}`, // created at its first check
      `2 ${LATEST_CHECK} ${LATEST_CHECK}`, // no check yet: the page's latest event
    ]);
    expect(after.etag).not.toBe(before.etag);
    const stale = await request(app)
      .get(`/s/${SLUG}/api/v2/components.json`)
      .set('If-None-Match', before.etag);
    expect(stale.status).toBe(200);
    const again = await request(app)
      .get(`/s/${SLUG}/api/v2/components.json`)
      .set('If-None-Match', after.etag);
    expect(again.status).toBe(304);

    // The stored documents hold the slot, not a time, so those checks left them byte for byte.
    const now = await storedDocuments();
    expect(now.map((body) => body?.toString('utf8'))).toEqual(stored.map((body) => body?.toString('utf8')));
    for (const body of now) {
      expect(body?.includes(UPDATED_SLOT_JSON)).toBe(true);
      expect(body?.includes(LATEST_CHECK)).toBe(false);
    }
  });
});
