// An incident event updates only its incident in the lists (its document, its list places, its
// month's daily counts): the models stay equal, key for key, to a rebuild that renders every list
// whole — across months, with old incidents edited and reopened in later batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readActive } from '../../src/store/control/versions.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { dumpVersion } from '../support/readModels.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const opened = (page: string, id: string, at: string) => ({
  type: 'incident.opened',
  page,
  at,
  data: { incident_id: id, title: `Incident ${id}`, message: 'Looking into it' },
});
const updated = (page: string, id: string, at: string, state: string, extra: object = {}) => ({
  type: 'incident.updated',
  page,
  at,
  data: { incident_id: id, state, message: `Now ${state}`, ...extra },
});

describe('incident lists updated in place', () => {
  let env: ProjectorEnv;
  const dump = async () =>
    dumpVersion(env.redis, env.prefix, (await readActive(env.redis, env.prefix))!.version);

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: '2026-11-22T12:00:00Z' });
  });
  afterAll(() => env.close());

  it('equals a rebuild after incidents open, change and reopen batch by batch', async () => {
    await env.append(
      pageConfigured('inc', {}, '2026-08-01T00:00:00Z'),
      monitorConfigured('inc', 1, {}, '2026-08-01T00:00:00Z'),
    );
    await env.project();
    // Three months of incidents, a batch each; two on one day; one edited later (title, components).
    for (const [month, ids] of [
      ['2026-09', ['a', 'b']],
      ['2026-10', ['c', 'd', 'e']],
      ['2026-11', ['f']],
    ] as const) {
      await env.append(...ids.map((id, i) => opened('inc', id, `${month}-0${3 + (i % 2)}T10:00:00Z`)));
      await env.project();
    }
    await env.append(
      updated('inc', 'a', '2026-11-20T10:00:00Z', 'resolved'),
      updated('inc', 'c', '2026-11-20T11:00:00Z', 'identified', { title: 'Renamed', components: ['API'] }),
    );
    await env.project();
    await env.append(updated('inc', 'a', '2026-11-21T10:00:00Z', 'monitoring')); // reopened
    await env.append(opened('inc', 'g', '2026-10-03T09:00:00Z')); // a late one in an earlier month
    await env.project();
    const incremental = await dump();
    expect([...incremental.keys()].filter((k) => k.includes(':inc:m:'))).toHaveLength(3);

    await rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 });
    expect(await dump()).toEqual(incremental);
  });

  it('renders the feeds and Statuspage documents from the incidents it can show, as a rebuild does', async () => {
    await env.append(
      pageConfigured('many', {}, '2026-08-01T00:00:00Z'),
      monitorConfigured('many', 2, {}, '2026-08-01T00:00:00Z'),
    );
    await env.project();
    // 70 incidents a day apart (a minute apart within a day), but six share the start at the 50th
    // place from the newest and five their resolution at the 50th place by latest update.
    const dayOf = (i: number) => new Date(Date.UTC(2026, 6, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const startOf = (i: number) => `${dayOf(i >= 17 && i <= 22 ? 17 : i)}T10:00:00Z`;
    const resolvedAt = (i: number) => `${dayOf(i >= 16 && i <= 20 ? 16 : i)}T12:00:00Z`;
    for (let from = 0; from < 70; from += 10) {
      const ids = Array.from({ length: 10 }, (_, k) => from + k);
      await env.append(...ids.map((i) => opened('many', `m${i}`, startOf(i))));
      await env.append(
        ...ids.filter((i) => i % 7 !== 0).map((i) => updated('many', `m${i}`, resolvedAt(i), 'resolved')),
      );
      await env.project();
    }
    // Old incidents edited later: to the top of the feed, one reopened, one renamed.
    await env.append(updated('many', 'm1', '2026-11-10T00:00:00Z', 'monitoring'));
    await env.project();
    await env.append(updated('many', 'm3', '2026-11-11T00:00:00Z', 'resolved', { title: 'Renamed' }));
    await env.project();
    const incremental = await dump();
    await rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 });
    expect(await dump()).toEqual(incremental);
  });
});
