// A monitor's failures are kept for FAILURE_HISTORY_MS before its latest check (the SLA reports'
// reach) and summarised per UTC day;
// a render reads the summaries and the failures of the partial days it needs only. The figures
// must stay exactly those of the whole, untrimmed history (test/support/figuresOracle.ts): here
// checks every 2 hours over the last 450 days and around the trim horizon (daily before that),
// with failures across day, period and trim boundaries, and
// three days of a check every minute alternating down and up.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timelineKeys } from '../../projections/timeline/keys.ts';
import { FAILURE_HISTORY_MS } from '../../projections/timeline/writes.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import * as oracle from '../support/figuresOracle.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { getOk, listenApi } from '../support/testServers.ts';

const NOW = Date.parse('2026-11-22T12:34:30.250Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const SLUG = 'trimmed';
const HISTORY_DAYS = FAILURE_HISTORY_MS / DAY;
const HORIZON = NOW - HISTORY_DAYS * DAY; // the trim cutoff: the latest check (NOW) minus the history

/** Deterministic statuses: runs of down checks of 1–5 checks, about a third of the time. */
const history = (): oracle.OracleCheck[] => {
  const checks: oracle.OracleCheck[] = [];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  let downLeft = 0;
  const yearAgo = NOW - 365 * DAY;
  const dense = (at: number) => at > NOW - 450 * DAY || Math.abs(at - HORIZON) < 3 * DAY;
  for (
    let at = NOW - (HISTORY_DAYS + 50) * DAY + 1234;
    at < NOW - 3 * DAY;
    at += (dense(at) ? 2 : 24) * 3_600_000
  ) {
    if (downLeft === 0 && random() < 0.12) downLeft = 1 + Math.floor(random() * 5);
    // One failure runs across the 1-year boundary, one across the trim horizon, one over 3 days.
    const forced =
      Math.abs(at - yearAgo) < 5 * 3_600_000 ||
      (at > HORIZON - 9 * 3_600_000 && at < HORIZON + 15 * 3_600_000);
    const long = at > NOW - 40 * DAY && at < NOW - 37 * DAY;
    const down = downLeft > 0 || forced || long;
    if (downLeft > 0) downLeft--;
    checks.push({ at, seq: checks.length, status: down ? 'down' : 'up', rt: 100 + (checks.length % 50) });
  }
  // Flapping every minute for the last three days.
  for (let at = NOW - 3 * DAY - 17_000; at <= NOW; at += 60_000)
    checks.push({ at, seq: checks.length, status: checks.length % 2 === 0 ? 'down' : 'up', rt: 120 });
  return checks;
};

describe('a trimmed failure history', () => {
  let env: ProjectorEnv;
  let server: Server;
  const monitor: oracle.OracleMonitor = { id: 41, name: 'Flappy', checks: history() };

  beforeAll(async () => {
    env = await startProjectorEnv({ now: iso(NOW), partitions: 2 });
    server = listenApi(env);
    const configuredAt = iso(NOW - (HISTORY_DAYS + 100) * DAY);
    await env.append(
      pageConfigured(SLUG, { plan: 'business' }, configuredAt),
      monitorConfigured(SLUG, monitor.id, { name: monitor.name }, configuredAt),
    );
    const events = monitor.checks.map((c) => check(SLUG, monitor.id, iso(c.at), c.status, c.rt));
    for (let i = 0; i < events.length; i += 5_000) {
      await env.append(...events.slice(i, i + 5_000));
      await env.project();
    }
  }, 300_000);
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  const get = (path: string) => getOk(server, path);

  it('keeps failures and day summaries of FAILURE_HISTORY_MS before the latest check only', async () => {
    const tag = await env.tagOf(partitionOf(SLUG, env.partitions));
    const keys = timelineKeys({ tag, monitorId: monitor.id });
    const cutoff = monitor.checks.at(-1)!.at - FAILURE_HISTORY_MS;
    const older = await env.redis.zrangebyscore(keys.down, '-inf', `(${String(cutoff)}`);
    expect(older).toHaveLength(1); // the failure that may still reach past the horizon
    const [start, end] = older[0]!.split(':').map(Number);
    expect(end! > cutoff - 9 * 3_600_000 && start! < cutoff).toBe(true);
    const days = await env.redis.zrange(keys.downDays, 0, 0, 'WITHSCORES');
    expect(Number(days[1])).toBe(Math.floor(cutoff / DAY) + 1);
    // One summary per day that holds down time, at most one a day.
    expect(await env.redis.zcard(keys.downDays)).toBeLessThanOrEqual(HISTORY_DAYS + 1);
  });

  it('serves every availability period exactly as the untrimmed history gives it', async () => {
    for (const period of oracle.PERIOD_NAMES) {
      const path = `/api/status-pages/${SLUG}/monitors/${String(monitor.id)}/availability?period=${period}`;
      expect({ path, body: await get(path) }).toEqual({
        path,
        body: oracle.availability(monitor, period, NOW),
      });
    }
  });

  it('serves the charts and the daily sparkline exactly as the untrimmed history gives them', async () => {
    const instant = oracle.assemblyInstant([monitor], NOW); // the answers' instant in NOW's minute
    expect(await get(`/api/status/${SLUG}/charts`)).toEqual(oracle.charts([monitor], instant));
    expect(await get(`/api/embed/status?slug=${SLUG}&upd=30`)).toMatchObject({
      upd: oracle.upd([monitor], 30, instant),
    });
  });
});
