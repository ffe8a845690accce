// The notifier end to end on a real PostgreSQL: subscribers made through the operator API,
// events appended now, planned into the outbox and delivered by the real webhook sender to a
// local HTTPS receiver, each delivery verified with the standardwebhooks package.
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Registry } from 'prom-client';
import { claimDue } from '../../src/notify/claimDue.ts';
import { createDispatcher } from '../../src/notify/dispatch.ts';
import { startNotifier } from '../../src/notify/notifier.ts';
import { systemClock } from '../../src/shared/clock.ts';
import type { Senders } from '../../src/notify/senders.ts';
import { pageConfigured, monitorConfigured } from '../support/events.ts';
import {
  makeTestCertificates,
  startLocalReceiver,
  type LocalReceiver,
  type ReceivedRequest,
} from '../support/localHttps.ts';
import {
  appendNow,
  dispatchAll,
  dispatchOnce,
  makeDue,
  noMetrics,
  outbox,
  planAll,
  subscribersApp,
  silent,
  testSenders,
  urls,
} from '../support/notifyFixture.ts';
import { waitForLogHorizon } from '../support/logHorizon.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';
import { INGEST_TOKEN } from '../support/testServers.ts';

let t: TestDatabase;
let receiver: LocalReceiver;
let senders: Senders;
let app: ReturnType<typeof subscribersApp>;
/** Answers per path: a list of statuses, the last repeated. */
const answers = new Map<string, number[]>();
/** Paths whose requests are held unanswered until the test ends them. */
const held = new Map<string, (() => void)[]>();

beforeAll(async () => {
  t = await freshDatabase();
  const certs = makeTestCertificates();
  receiver = await startLocalReceiver(certs, (req, res) => {
    const holding = held.get(req.path);
    if (holding !== undefined) {
      holding.push(() => res.writeHead(204).end());
      return;
    }
    const planned = answers.get(req.path) ?? [204];
    const status = planned.length > 1 ? (planned.shift() ?? 204) : (planned[0] ?? 204);
    res.writeHead(status).end();
  });
  senders = testSenders(certs);
  app = subscribersApp(t);
  const at = new Date().toISOString();
  await appendNow(t, [
    pageConfigured('acme', {}, at),
    monitorConfigured('acme', 1, { name: 'API' }, at),
    monitorConfigured('acme', 2, { name: 'DB' }, at),
  ]);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const auth = { Authorization: `Bearer ${INGEST_TOKEN}` };
const subscribe = async (body: Record<string, unknown>) => {
  const res = await request(app).post('/v1/pages/acme/subscribers').set(auth).send(body);
  expect(res.status).toBe(201);
  return res.body as { id: string; secret?: string };
};
const received = (path: string): ReceivedRequest[] => receiver.requests.filter((r) => r.path === path);
const verify = (req: ReceivedRequest, secret: string) =>
  new Webhook(secret).verify(req.body, {
    'webhook-id': String(req.headers['webhook-id']),
    'webhook-timestamp': String(req.headers['webhook-timestamp']),
    'webhook-signature': String(req.headers['webhook-signature']),
  }) as { type: string; data: { incident?: { id: string; state: string } } };

let incidents = 0;
const openIncident = async (extra: Record<string, unknown> = {}, at = new Date().toISOString()) => {
  const id = `inc-${String(++incidents)}`;
  await appendNow(t, [
    {
      type: 'incident.opened',
      page: 'acme',
      at,
      data: { incident_id: id, title: 'API down', message: 'Looking', components: ['API'], ...extra },
    },
  ]);
  return id;
};
const planAndSend = async () => {
  await planAll(t);
  await dispatchAll(t, senders);
};

describe('notifier', () => {
  it('delivers an incident once to a webhook subscriber, signed, and a replay of the log sends nothing more', async () => {
    const { id, secret } = await subscribe({ channel: 'webhook', url: receiver.url('/once') });
    if (secret === undefined) throw new Error('no secret');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await openIncident();
    expect(await planAll(t)).toBe(1);
    expect(await dispatchAll(t, senders)).toBe(1);
    const [delivery] = received('/once');
    if (delivery === undefined) throw new Error('nothing delivered');
    expect(verify(delivery, secret)).toMatchObject({
      type: 'incident.opened',
      data: { incident: { id: 'inc-1', state: 'investigating' } },
    });
    const rows = (await outbox(t)).filter((row) => row.subscriber_id === id);
    expect(rows).toEqual([
      {
        source: expect.stringMatching(/^log:\d+$/) as string,
        subscriber_id: id,
        message_id: delivery.headers['webhook-id'],
        state: 'sent',
        attempts: 1,
        type: 'incident.opened',
      },
    ]);
    const log = await request(app).get(`/v1/pages/acme/subscribers/${id}/deliveries`).set(auth);
    expect(log.body).toMatchObject({
      deliveries: [{ event: 'incident.opened', outcome: 'delivered', status_code: 204 }],
    });

    // A replay of the whole log by the notifier (its checkpoint back at the start) plans and sends nothing.
    await t.db.query(sql.unsafe`UPDATE notifier_checkpoints SET checkpoint = '0:0'`);
    expect(await planAll(t)).toBe(0);
    expect(await dispatchAll(t, senders)).toBe(0);
    expect(received('/once')).toHaveLength(1);
    await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
  });

  it('sends nothing for an event older than 15 minutes, one with notify false, or out of scope', async () => {
    const { id } = await subscribe({ channel: 'webhook', url: receiver.url('/quiet'), components: ['DB'] });
    await openIncident({}, new Date(Date.now() - 16 * 60_000).toISOString());
    await openIncident({ components: ['DB'], notify: false });
    await openIncident();
    await planAndSend();
    expect(received('/quiet')).toHaveLength(0);
    await openIncident({ components: ['DB'] });
    await planAndSend();
    expect(received('/quiet')).toHaveLength(1);
    await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
  });

  it('retries a 503 with the same webhook-id, and a dispatcher lost after sending leaves a retry of the same message', async () => {
    answers.set('/flaky', [503, 204]);
    const { id, secret } = await subscribe({ channel: 'webhook', url: receiver.url('/flaky') });
    if (secret === undefined) throw new Error('no secret');
    await openIncident();
    await planAndSend();
    expect((await outbox(t)).filter((r) => r.subscriber_id === id).map((r) => [r.state, r.attempts])).toEqual(
      [['pending', 1]],
    );
    await makeDue(t); // the 5 s retry has come
    await dispatchAll(t, senders);
    // Claimed and sent, but never recorded: the claim's lease runs out and the row is sent again.
    await openIncident();
    await planAll(t);
    const [claimed] = await claimDue(t.db, ['webhook'], 10);
    if (claimed === undefined) throw new Error('nothing claimed');
    await senders.webhook?.(claimed.recipient, claimed.message);
    await makeDue(t);
    await dispatchAll(t, senders);
    const ids = received('/flaky').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(4);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[2]);
    for (const delivery of received('/flaky')) verify(delivery, secret);
    const log = await request(app).get(`/v1/pages/acme/subscribers/${id}/deliveries`).set(auth);
    expect(
      (log.body as { deliveries: { outcome: string; status_code: number }[] }).deliveries.map((d) => [
        d.outcome,
        d.status_code,
      ]),
    ).toEqual([
      ['delivered', 204],
      ['delivered', 204],
      ['retry', 503],
    ]);
    await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
  });

  it('quarantines a subscriber answered 410 and drops its pending messages; enable brings it back', async () => {
    answers.set('/gone', [410, 204]);
    const { id } = await subscribe({ channel: 'webhook', url: receiver.url('/gone') });
    await openIncident();
    await planAndSend();
    const listed = await request(app).get('/v1/pages/acme/subscribers').set(auth);
    const mine = (
      listed.body as { subscribers: { id: string; state: string; target_hint: string }[] }
    ).subscribers.find((s) => s.id === id);
    expect(mine).toMatchObject({
      state: 'quarantined',
      target_hint: `https://localhost:${String(receiver.port)}/…`,
    });
    expect(JSON.stringify(listed.body)).not.toContain('/gone');
    await openIncident();
    await planAndSend();
    expect(received('/gone')).toHaveLength(1);
    const enabled = await request(app).post(`/v1/pages/acme/subscribers/${id}/enable`).set(auth);
    expect(enabled.body).toMatchObject({ id, state: 'active', quarantined_at: null });
    await openIncident();
    await planAndSend();
    expect(received('/gone')).toHaveLength(2);
    await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
  });

  it('sends a fan-out larger than one claim in one call, claiming ahead, each message once and each attempt recorded', async () => {
    const paths = Array.from({ length: 7 }, (_, i) => `/fan-${String(i)}`);
    for (const path of paths.slice(0, 2)) answers.set(path, [503]);
    const made = [];
    for (const path of paths) made.push(await subscribe({ channel: 'webhook', url: receiver.url(path) }));
    await openIncident();
    await planAll(t);
    // Claims of 3 with 2 in flight: 3, 3 and 1 rows, the later ones claimed while earlier ones send.
    expect(await dispatchOnce(t, senders, { claimLimit: 3, concurrency: 2 })).toBe(7);
    const ids = paths.flatMap((path) => received(path).map((r) => r.headers['webhook-id']));
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
    const mine = new Set(made.map(({ id }) => id));
    const rows = (await outbox(t)).filter((r) => mine.has(r.subscriber_id));
    expect(rows.map((r) => [r.state, r.attempts]).sort()).toEqual([
      ['pending', 1],
      ['pending', 1],
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
    for (const [index, { id }] of made.entries()) {
      const log = await request(app).get(`/v1/pages/acme/subscribers/${id}/deliveries`).set(auth);
      expect(
        (log.body as { deliveries: { outcome: string; status_code: number }[] }).deliveries.map((d) => [
          d.outcome,
          d.status_code,
        ]),
      ).toEqual([index < 2 ? ['retry', 503] : ['delivered', 204]]);
      await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
    }
  });

  it('lets a receiver that hangs hold one slot, not the queue: later messages go out around it', async () => {
    held.set('/hangs', []);
    const hanging = await subscribe({ channel: 'webhook', url: receiver.url('/hangs') });
    const others = [await subscribe({ channel: 'webhook', url: receiver.url('/beside-1') })];
    others.push(await subscribe({ channel: 'webhook', url: receiver.url('/beside-2') }));
    const dispatcher = createDispatcher({
      db: t.db,
      senders,
      log: silent,
      metrics: noMetrics,
      concurrency: 3,
    });
    try {
      await openIncident();
      await planAll(t);
      expect(await dispatcher.run()).toBe(3); // returns with the hanging send still in its slot
      await openIncident();
      await planAll(t);
      expect(await dispatcher.run()).toBe(3);
      // Both messages to the others arrived while the first one to /hangs is still unanswered.
      await vi.waitFor(() => {
        expect(received('/beside-1')).toHaveLength(2);
        expect(received('/beside-2')).toHaveLength(2);
        expect(held.get('/hangs')).toHaveLength(2);
      });
    } finally {
      for (const answer of held.get('/hangs') ?? []) answer();
      await dispatcher.drain();
    }
    const rows = (await outbox(t)).filter((r) =>
      [hanging, ...others].some(({ id }) => id === r.subscriber_id),
    );
    expect(rows.map((r) => r.state)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'sent']);
    for (const { id } of [hanging, ...others])
      await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
  });

  it('plans and sends as soon as it is woken, not at its next look', async () => {
    const { id } = await subscribe({ channel: 'webhook', url: receiver.url('/woken') });
    await planAll(t); // the log so far is read: the running notifier below finds nothing to do
    // Its loops look again only after an hour: the delivery below can only come from the wake.
    const notifier = startNotifier({
      db: t.db,
      senders,
      urls,
      coalesceMs: 30_000,
      log: silent,
      registry: new Registry(),
      clock: systemClock,
      pollMs: 3_600_000,
    });
    try {
      await vi.waitFor(async () => {
        expect((await outbox(t)).some((r) => r.subscriber_id === id)).toBe(false);
      });
      await openIncident();
      await waitForLogHorizon(t.url); // readable now, as it is to a projector that has read it
      notifier.wake();
      await vi.waitFor(() => expect(received('/woken')).toHaveLength(1), { timeout: 10_000 });
    } finally {
      await notifier.stop();
    }
    await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
  });

  it('two notifiers planning and dispatching at once send each message once', async () => {
    const { id } = await subscribe({ channel: 'webhook', url: receiver.url('/twice') });
    for (let i = 0; i < 5; i++) await openIncident();
    await Promise.all([planAll(t), planAll(t), planAll(t)]);
    await Promise.all([dispatchAll(t, senders), dispatchAll(t, senders)]);
    const ids = received('/twice').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    await request(app).delete(`/v1/pages/acme/subscribers/${id}`).set(auth).expect(204);
  });

  it('signs with the old and the new secret after a rotation', async () => {
    const { id, secret } = await subscribe({ channel: 'webhook', url: receiver.url('/rotated') });
    const rotated = await request(app).post(`/v1/pages/acme/subscribers/${id}/rotate-secret`).set(auth);
    expect(rotated.status).toBe(200);
    const next = (rotated.body as { secret: string }).secret;
    expect(next).not.toBe(secret);
    await openIncident();
    await planAndSend();
    const [delivery] = received('/rotated');
    if (delivery === undefined || secret === undefined) throw new Error('nothing delivered');
    expect(verify(delivery, secret).type).toBe('incident.opened');
    expect(verify(delivery, next).type).toBe('incident.opened');
  });

  it('gathers an incident storm: updates join the unsent message, then one message when 30 s after a sent one end', async () => {
    const { id, secret } = await subscribe({ channel: 'webhook', url: receiver.url('/storm') });
    if (secret === undefined) throw new Error('no secret');
    const incident = await openIncident();
    await planAll(t); // planned, not yet sent
    const update = (state: string) =>
      appendNow(t, [
        {
          type: 'incident.updated',
          page: 'acme',
          at: new Date().toISOString(),
          data: { incident_id: incident, state, message: state },
        },
      ]);
    await update('identified');
    await planAndSend();
    await update('monitoring');
    await planAll(t);
    await update('resolved');
    await planAndSend(); // the gathered message is due when the 30 s end, not now
    expect(received('/storm')).toHaveLength(1);
    expect((await outbox(t)).filter((r) => r.subscriber_id === id).map((r) => r.state)).toEqual([
      'sent',
      'coalesced',
      'pending',
      'coalesced',
    ]);
    await makeDue(t);
    await dispatchAll(t, senders);
    const bodies = received('/storm').map((r) => verify(r, secret) as unknown as Record<string, unknown>);
    expect(
      bodies.map((b) => [b['type'], (b['data'] as { incident: { state: string } }).incident.state]),
    ).toEqual([
      ['incident.opened', 'identified'],
      ['incident.updated', 'resolved'],
    ]);
  });
});
