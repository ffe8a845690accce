// A check that arrives out of order inside the current month reaches the month's report as soon as
// the projection has caught up, like every other answer (sla-reports.md: a report always equals
// what the log says now), not when the minute turns. The API process has read and kept the report
// of the minute before the check arrives.
import type { RequestListener } from 'node:http';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublicHandler } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createReadPath, type ReadPath } from '../../src/http/readPath.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { oracleReport, type OraclePage } from '../support/slaOracle.ts';

const NOW = Date.parse('2026-11-22T12:00:30Z');
// The instant the current month is reported up to: the minute's start.
const AS_OF = Date.parse('2026-11-22T12:00:00Z');
const CONFIGURED = '2026-11-01T00:00:00Z';
const REPORT = '/api/status-pages/late/sla';

describe('SLA report of the current month after a late check', () => {
  let env: ProjectorEnv;
  let readPath: ReadPath;
  let handler: RequestListener;
  const getOk = async (path: string): Promise<unknown> => {
    const res = await request(handler).get(path);
    expect(res.status).toBe(200);
    return res.body as unknown;
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ now: new Date(NOW).toISOString() });
    const log = pino({ level: 'silent' });
    // The read path of `npm run serve`: the response cache and the memo, as configured by default.
    readPath = createReadPath({ redis: env.redis, prefix: env.prefix, log }, {});
    await readPath.subscriber.ready();
    handler = buildPublicHandler({
      redis: env.redis,
      prefix: env.prefix,
      clock: env.now,
      config: loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate }),
      log,
      subscriber: readPath.subscriber,
      cache: readPath.cache!,
      memo: readPath.memo!,
    });
  });
  afterAll(async () => {
    await readPath.close();
    await env.close();
  });

  it('equals the reference right after the projection caught up', async () => {
    const checks: { at: number; status: 'up' | 'down' }[] = [
      { at: Date.parse('2026-11-22T10:00:00Z'), status: 'down' },
      { at: Date.parse('2026-11-22T11:00:00Z'), status: 'up' },
      { at: Date.parse('2026-11-22T11:59:00Z'), status: 'up' },
    ];
    await env.append(
      pageConfigured('late', { time_zone: 'Europe/Berlin' }, CONFIGURED),
      monitorConfigured('late', 7, { name: 'API' }, CONFIGURED),
      ...checks.map((c) => check('late', 7, new Date(c.at).toISOString(), c.status)),
    );
    await env.project();
    const page = (): OraclePage => ({
      slug: 'late',
      zone: 'Europe/Berlin',
      target: 99.9,
      exclude: true,
      monitors: [{ id: 7, name: 'API', position: null, checks: [...checks].sort((a, b) => a.at - b.at) }],
      maintenances: [],
    });
    const before = await getOk(REPORT);
    expect(before).toEqual(oracleReport(page(), '2026-11', AS_OF));
    expect(before).toMatchObject({ monitors: [{ downtime_seconds: 3600, incident_count: 1 }] });

    // Late, inside the current month, in the same minute: the failure now starts 110 s earlier.
    checks.push({ at: Date.parse('2026-11-22T09:58:10Z'), status: 'down' });
    await env.append(check('late', 7, '2026-11-22T09:58:10Z', 'down'));
    const heard = readPath.cache!.stats().invalidations;
    await env.project();
    // Right after: as soon as this process heard the commit's announcement.
    while (readPath.cache!.stats().invalidations === heard) await new Promise((r) => setTimeout(r, 5));
    const after = await getOk(REPORT);
    expect(after).toMatchObject({ monitors: [{ downtime_seconds: 3710, incident_count: 1 }] });
    expect(after).toEqual(oracleReport(page(), '2026-11', AS_OF));
  });
});
