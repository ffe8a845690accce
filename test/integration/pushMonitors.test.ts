// Push monitors: the settings monitor.configured takes, the push token from the operator API, the
// public GET/POST /push/{token} (status, ping, 404, 429), and the scheduler's missed-heartbeat
// check at the deadline, appended once however many schedulers run; the page shows it exactly.
import request from 'supertest';
import { pino } from 'pino';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { appendEvents, InvalidBatch } from '../../src/eventLog/appendEvents.ts';
import { appendMissedHeartbeats, missedCheckId } from '../../src/integrations/missedHeartbeats.ts';
import { pushCheckId, type PushDeps } from '../../src/integrations/pushRoutes.ts';
import { StoredEvent } from '../../src/events/storedEvent.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { integrationsApp } from '../support/integrationsFixture.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { INGEST_TOKEN, appOf } from '../support/testServers.ts';

let env: ProjectorEnv;
let operator: ReturnType<typeof integrationsApp>;
let api: ReturnType<typeof appOf>;
let token: string;
let config: ReturnType<typeof loadConfig>;
let push: PushDeps;

const checks = () =>
  env.t.db.any(sql.type(
    z.object({ at: z.number(), status: z.string(), ms: z.number(), id: z.string().nullable() }),
  )`
    SELECT at, data->>'status' AS status, (data->>'response_time_ms')::int AS ms, event_id AS id
    FROM event_log WHERE type = 'check.recorded' AND data->>'monitor_id' = '7' ORDER BY at, position`);

const refusal = async (data: Record<string, unknown>) => {
  const error = await appendEvents(env.t.db, [monitorConfigured('acme', 9, data)], { now: env.now() }).catch(
    (e: unknown) => e,
  );
  return error instanceof InvalidBatch ? error.details.map((d) => d.message) : error;
};

beforeAll(async () => {
  env = await startProjectorEnv({ now: '2026-11-22T12:00:00Z' });
  await env.append(
    pageConfigured('acme'),
    monitorConfigured('acme', 7, { name: 'Backup', type: 'push', push_interval_s: 60 }),
    monitorConfigured('acme', 8, { name: 'Website' }),
  );
  operator = integrationsApp(env);
  config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
  push = {
    db: env.t.db,
    wake: () => Promise.resolve(),
    clock: env.now,
    log: pino({ level: 'silent' }),
  };
  api = appOf(env, config, { push });
});
afterAll(() => env.close());

const pushToken = (monitor: number) =>
  request(operator)
    .post(`/v1/pages/acme/monitors/${monitor}/push-token`)
    .set('Authorization', `Bearer ${INGEST_TOKEN}`);

describe('push monitors', () => {
  it('validates the push settings of monitor.configured', async () => {
    expect(await refusal({ type: 'push' })).toEqual(['data.push_interval_s: required for a push monitor']);
    expect(await refusal({ type: 'push', push_interval_s: 29 })).toEqual([
      'data.push_interval_s: Number must be greater than or equal to 30',
    ]);
    expect(await refusal({ type: 'push', push_interval_s: 86_401 })).toEqual([
      'data.push_interval_s: Number must be less than or equal to 86400',
    ]);
    expect(await refusal({ type: 'push', push_interval_s: 60, push_grace_s: 29 })).toEqual([
      'data.push_grace_s: Number must be greater than or equal to 30',
    ]);
    expect(await refusal({ push_grace_s: 60 })).toEqual(['data.push_grace_s: only for type "push"']);
    // A `type: "push"` logged before push monitors existed still reads back (rebuilds replay it).
    const logged = { monitor_id: 9, name: 'Old', type: 'push', impact: 'partial' };
    expect(
      StoredEvent.safeParse({
        type: 'monitor.configured',
        page: 'acme',
        at: '2026-01-01T00:00:00Z',
        position: '1',
        data: logged,
      }).success,
    ).toBe(true);
  });

  it('gives a push monitor a token once, and refuses other monitors', async () => {
    const created = await pushToken(7);
    expect(created.status).toBe(201);
    token = (created.body as { token: string }).token;
    expect(created.body).toMatchObject({
      kind: 'push',
      monitor_id: 7,
      push_url: `http://status.test/push/${token}`,
    });
    expect((await pushToken(8)).body).toEqual({ error: 'not a push monitor' });
    expect((await pushToken(99)).status).toBe(404);
    // Only the digest is stored.
    const stored = await env.t.db.anyFirst(sql.type(z.object({ token_hash: z.string() }))`
      SELECT token_hash FROM integration_tokens`);
    expect(stored.some((hash) => hash.includes(token))).toBe(false);
  });

  it('takes a push as a check: status, ping, one a second, unknown tokens 404', async () => {
    expect([(await request(api).get(`/push/${token}`)).status]).toEqual([200]);
    const again = await request(api).get(`/push/${token}`);
    expect([again.status, again.body, again.headers['retry-after']]).toEqual([
      429,
      { error: 'too many requests' },
      '1',
    ]);
    // Another API process (a throttle of its own) in the same second: the log refuses the repeat.
    const otherProcess = appOf(env, config, { push });
    expect((await request(otherProcess).get(`/push/${token}`)).status).toBe(429);
    env.setNow('2026-11-22T12:00:01Z');
    const degraded = await request(api).post(`/push/${token}?status=degraded&ping=250`);
    expect([degraded.status, degraded.body]).toEqual([200, { ok: true }]);
    env.setNow('2026-11-22T12:00:03Z');
    expect((await request(api).get(`/push/${token}?status=sideways`)).body).toEqual({
      error: 'invalid parameters',
    });
    expect((await request(api).get('/push/spp_unknown')).status).toBe(404);
    expect(await checks()).toEqual([
      {
        at: Date.parse('2026-11-22T12:00:00Z'),
        status: 'up',
        ms: 0,
        id: pushCheckId(7, Date.parse('2026-11-22T12:00:00Z')),
      },
      {
        at: Date.parse('2026-11-22T12:00:01Z'),
        status: 'degraded',
        ms: 250,
        id: `push-7-${String(Date.parse('2026-11-22T12:00:01Z') / 1000)}`,
      },
    ]);
  });

  it('marks a silent monitor down at its deadline once, whatever the number of schedulers', async () => {
    // Deadline: the last push (12:00:01) + 60 s + the default grace max(30, 6) s = 12:01:31.
    const deadline = Date.parse('2026-11-22T12:01:31Z');
    env.setNow(deadline - 1);
    expect(await appendMissedHeartbeats(env.t.db, env.now())).toBeNull();
    env.setNow('2026-11-22T12:03:00Z');
    const [a, b] = await Promise.all([
      appendMissedHeartbeats(env.t.db, env.now()),
      appendMissedHeartbeats(env.t.db, env.now()),
    ]);
    expect((a?.accepted ?? 0) + (b?.accepted ?? 0)).toBe(1);
    // A restarted scheduler, and a replay of the same check.
    expect(await appendMissedHeartbeats(env.t.db, env.now())).toBeNull();
    const missed = {
      id: missedCheckId(7, deadline),
      type: 'check.recorded',
      page: 'acme',
      at: '2026-11-22T12:01:31Z',
      data: { monitor_id: 7, status: 'down', response_time_ms: 0 },
    };
    expect(await appendEvents(env.t.db, [missed], { now: env.now() })).toMatchObject({
      accepted: 0,
      duplicates: 1,
    });
    // The next push makes it up again.
    env.setNow('2026-11-22T12:05:00Z');
    expect((await request(api).get(`/push/${token}`)).status).toBe(200);
    expect((await checks()).slice(2)).toEqual([
      { at: deadline, status: 'down', ms: 0, id: 'push-missed-7-1795348891000' },
      { at: Date.parse('2026-11-22T12:05:00Z'), status: 'up', ms: 0, id: 'push-7-1795349100' },
    ]);
    await env.project();
    const availability = await request(api).get('/api/status-pages/acme/monitors/7/availability?period=24h');
    expect(availability.body).toMatchObject({
      availability: { downtime_seconds: 209, incident_count: 1 }, // 12:01:31–12:05:00
    });
  });

  it('revokes a push token when a new one is made', async () => {
    const old = token;
    token = ((await pushToken(7)).body as { token: string }).token;
    env.setNow('2026-11-22T12:06:00Z');
    expect((await request(api).get(`/push/${old}`)).status).toBe(404);
    expect((await request(api).get(`/push/${token}`)).status).toBe(200);
  });
});
