// Deleting a page removes every output its renders wrote, found without a SCAN: from the models'
// key builders and the months its last render recorded. The test itself scans (SCAN is fine in
// a test) to prove the list complete: nothing of the page is left but its document and access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageKeyPattern } from '../../projections/store/page.ts';
import { scanKeys } from '../../src/store/scanKeys.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { pageKeys } from '../support/pageKeys.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const incident = (id: string, at: string) => ({
  type: 'incident.opened',
  page: 'doomed',
  at,
  data: { incident_id: id, title: `Incident ${id}`, message: 'Looking', components: [] },
});
const maintenance = (id: string, start: string, end: string) => ({
  type: 'maintenance.scheduled',
  page: 'doomed',
  at: '2026-09-01T00:00:00Z',
  data: {
    maintenance_id: id,
    title: `Work ${id}`,
    description: 'Planned',
    scheduled_start: start,
    scheduled_end: end,
  },
});

describe('deleting a page', () => {
  let env: ProjectorEnv;
  let keys: ReturnType<typeof pageKeys>;
  const pageKeysStored = async () =>
    (
      await scanKeys(env.redis, pageKeyPattern({ tag: keys.access.split(':pg:')[0]!, slug: 'doomed' }))
    ).sort();

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:30Z' });
    keys = pageKeys(await env.tagOf(partitionOf('doomed', env.partitions)), 'doomed');
    await env.append(
      pageConfigured('doomed'),
      monitorConfigured('doomed', 1),
      monitorConfigured('doomed', 2),
      check('doomed', 1, '2026-11-22T11:00:00Z', 'up'),
      check('doomed', 2, '2026-11-22T11:00:00Z', 'down'),
      incident('i-sep', '2026-09-10T08:00:00Z'),
      incident('i-nov', '2026-11-20T08:00:00Z'),
      maintenance('m-oct', '2026-10-31T22:00:00Z', '2026-11-01T02:00:00Z'),
      maintenance('m-dec', '2026-12-05T01:00:00Z', '2026-12-05T02:00:00Z'),
    );
    await env.project();
  });
  afterAll(() => env.close());

  it('renders outputs under months and statuses before the deletion', async () => {
    const stored = await pageKeysStored();
    expect(stored).toEqual(
      expect.arrayContaining([
        keys.embed,
        keys.incidentMonth('2026-09'),
        keys.incidentMonth('2026-11'),
        keys.maintenanceMonth('2026-10'),
        keys.maintenanceMonth('2026-11'),
        keys.maintenanceMonth('2026-12'),
        keys.maintenanceStatus('scheduled'),
        keys.availability(1),
        keys.availability(2),
      ]),
    );
  });

  it('leaves only the document, its updated time and the access that says it is deleted', async () => {
    await env.append({ type: 'page.deleted', page: 'doomed', at: '2026-11-22T12:00:00Z', data: {} });
    await env.project();
    expect(await pageKeysStored()).toEqual([keys.access, keys.state, keys.updated].sort());
    expect(JSON.parse((await env.redis.get(keys.access))!)).toMatchObject({ state: 'deleted' });
  });
});
