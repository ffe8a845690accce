// After a clean rebuild the SLA answers (JSON, CSV, the printable report) are byte for byte those
// the incremental projection gave at the same pinned instant: the summaries stored as months
// completed (a month rolled over between two runs), after marks (a backfilled check, a
// maintenance edited afterwards), and the current periods assembled at read time. The rebuild
// runs later in the minute than the minute's first run of the projection: the current period's
// `as_of` is the minute's start for both.
import type { Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuild } from '../../src/projector/rebuild.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { listenApi } from '../support/testServers.ts';

const NOW = '2026-11-22T12:34:30.250Z';
const PERIODS = ['2026-11', '2026-Q4', '2026', '2026-10', '2026-03', '2026-Q1', '2025-12', '2025'];
const ev = (type: string, page: string, at: string, data: object) => ({ type, page, at, data });

describe('SLA answers after a clean rebuild', () => {
  let env: ProjectorEnv;
  let server: Server;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-10-31T22:50:00Z', partitions: 2 });
    server = listenApi(env);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  /** Every answer of both pages: status, ETag and body bytes, by path. */
  const answers = async () => {
    const out = new Map<string, [number, string, string]>();
    for (const slug of ['berlin', 'stjohns'])
      for (const period of PERIODS)
        for (const path of [
          `/api/status-pages/${slug}/sla?period=${period}`,
          `/api/status-pages/${slug}/sla?period=${period}&format=csv`,
          `/s/${slug}/sla/${period}`,
        ]) {
          const res = await request(server).get(path).buffer(true);
          out.set(path, [res.status, String(res.headers['etag']), res.text]);
        }
    out.set('current', [0, '', (await request(server).get('/api/status-pages/berlin/sla')).text]);
    return out;
  };

  it('gives the same bytes as the incremental projection', async () => {
    const config = '2025-06-01T00:00:00Z';
    await env.append(
      pageConfigured('berlin', { time_zone: 'Europe/Berlin', sla_target: 99.95 }, config),
      monitorConfigured('berlin', 11, { name: 'API' }, config),
      monitorConfigured('berlin', 12, { name: 'Web', sla_target: 99.5 }, config),
      pageConfigured('stjohns', { time_zone: 'America/St_Johns' }, config),
      monitorConfigured('stjohns', 21, { name: 'Edge' }, config),
      ev('maintenance.scheduled', 'berlin', config, {
        maintenance_id: 'm1',
        title: 'Upgrade',
        scheduled_start: '2026-10-25T00:30:00Z', // the DST night
        scheduled_end: '2026-10-25T02:30:00Z',
        components: ['API'],
      }),
      check('berlin', 11, '2026-10-25T00:00:00Z', 'down'),
      check('berlin', 11, '2026-10-25T01:10:00Z', 'up'),
      check('berlin', 11, '2026-10-31T22:40:00Z', 'down'), // open across Berlin's month end (23:00)
      check('stjohns', 21, '2026-10-31T22:00:00Z', 'down'),
      check('stjohns', 21, '2026-10-31T22:10:00Z', 'up'),
    );
    await env.project();
    // The month rolls over (Berlin first, St. John's later), the failure closes in November.
    env.setNow('2026-11-01T04:00:10Z');
    await env.append(
      check('berlin', 11, '2026-11-01T00:20:00Z', 'up'),
      check('stjohns', 21, '2026-11-01T03:30:00Z'),
    );
    await env.project();
    env.setNow('2026-11-22T12:00:05Z');
    await env.append(
      check('berlin', 12, '2026-11-22T11:00:00Z', 'down'), // open now
      check('berlin', 11, '2026-03-29T00:30:00Z', 'down'), // backfilled into March's DST night
      check('berlin', 11, '2026-03-29T01:30:00Z', 'up'),
      ev('maintenance.updated', 'berlin', '2026-11-22T12:00:00Z', {
        maintenance_id: 'm1',
        scheduled_start: '2026-10-25T00:00:00Z',
        scheduled_end: '2026-10-25T03:00:00Z',
      }),
    );
    await env.project();
    env.setNow('2026-11-22T12:34:05.500Z'); // the minute's first run
    await env.project();
    env.setNow(NOW);
    await env.project();
    const live = await answers();
    expect(JSON.parse(live.get('current')![2])).toMatchObject({
      period: '2026-11',
      as_of: '2026-11-22T12:34:00Z',
    });
    expect([...live.values()].filter(([status]) => status !== 0 && status !== 200)).toEqual([]);

    await rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 });
    // A fresh API process: it finds the pages in the rebuilt version.
    await new Promise((resolve) => server.close(resolve));
    server = listenApi(env);
    const rebuilt = await answers();
    expect(rebuilt.get('current')).toEqual(live.get('current'));
    const differing = [...live.keys()].filter(
      (path) => JSON.stringify(live.get(path)) !== JSON.stringify(rebuilt.get(path)),
    );
    expect(differing).toEqual([]);
  });
});
