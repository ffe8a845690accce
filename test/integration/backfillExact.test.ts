// Importing old history after going live: checks older than everything projected so far must
// give the figures the same checks give in time order (decisions.md, time model). 30 days of
// checks every 10 minutes with one 2-hour outage, then checks from 40 to 60 days ago arrive.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const DAY_S = 86_400;
const OUTAGE_S = 7_200;
const iso = (ms: number) => new Date(ms).toISOString();
const daysAgo = (days: number) => iso(NOW - days * DAY_S * 1000);

/** Every 10 minutes for the last 30 days; down from 2026-11-10T10:00 to 12:00. */
const liveChecks = (monitorId: number) =>
  Array.from({ length: 30 * 144 }, (_, i) => {
    const at = NOW - 30 * DAY_S * 1000 + i * 600_000;
    const down = at >= Date.parse('2026-11-10T10:00:00Z') && at < Date.parse('2026-11-10T12:00:00Z');
    return check('old', monitorId, iso(at), down ? 'down' : 'up', 100);
  });

const figures = (downtime: number, failures: number) => {
  const total = 90 * DAY_S;
  return {
    total_seconds: total,
    downtime_seconds: downtime,
    uptime_percentage: Math.round((100_000 * (total - downtime)) / total) / 1000,
    incident_count: failures,
    mtbf_seconds: Math.floor((total - downtime) / failures),
    mttr_seconds: Math.floor(downtime / failures),
  };
};

// Known to fail until the projector reads checks older than the recent ones it keeps from
// the log; turned into `it` by the change that makes backfill exact.
describe('backfilled history', () => {
  let env: ProjectorEnv;
  let api: ReturnType<typeof request>;
  const availability = async (monitorId: number) =>
    (await api.get(`/api/status-pages/old/monitors/${String(monitorId)}/availability?period=90d`)).body as {
      availability: unknown;
    };

  beforeAll(async () => {
    env = await startProjectorEnv({ now: iso(NOW) });
    await env.append(
      pageConfigured('old', {}, daysAgo(89)),
      monitorConfigured('old', 1, {}, daysAgo(89)),
      monitorConfigured('old', 2, {}, daysAgo(89)),
    );
    await env.append(...liveChecks(1), ...liveChecks(2));
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    api = request(appOf(env, config));
    expect((await availability(1)).availability).toEqual(figures(OUTAGE_S, 1));
  });
  afterAll(() => env.close());

  it('a down check 60 days old is one 30-day failure before the live history', async () => {
    await env.append(check('old', 1, daysAgo(60), 'down'));
    await env.project();
    expect((await availability(1)).availability).toEqual(figures(30 * DAY_S + OUTAGE_S, 2));
    await env.append(check('old', 1, daysAgo(45), 'up'));
    await env.project();
    expect((await availability(1)).availability).toEqual(figures(15 * DAY_S + OUTAGE_S, 2));
  });

  it('an up check 40 days old keeps the live outage', async () => {
    await env.append(check('old', 2, daysAgo(40), 'up'));
    await env.project();
    expect((await availability(2)).availability).toEqual(figures(OUTAGE_S, 1));
  });
});
