// A deleted page's outputs are deleted by one render, then the page leaves every set that drives
// rendering (the page set, the dirty sets, the due set): no clock tick renders it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionKeys } from '../../projections/store/control/keys.ts';
import { collectRenders } from '../../src/projector/collectRenders.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const SLUG = 'goner';

describe('a deleted page', () => {
  let env: ProjectorEnv;
  let tag: string;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:00Z', partitions: 2 });
    tag = await env.tagOf(partitionOf(SLUG, env.partitions));
    await env.append(
      pageConfigured(SLUG, {}, '2026-11-01T00:00:00Z'),
      pageConfigured('stays', {}, '2026-11-01T00:00:00Z'),
      monitorConfigured(SLUG, 5, {}, '2026-11-01T00:00:00Z'),
      check(SLUG, 5, '2026-11-22T11:00:00Z', 'down'),
      check(SLUG, 5, '2026-11-22T11:10:00Z', 'up'),
      {
        type: 'maintenance.scheduled',
        page: SLUG,
        at: '2026-11-20T00:00:00Z',
        data: {
          maintenance_id: 'mw',
          title: 'Work',
          description: 'Soon',
          scheduled_start: '2026-11-25T00:00:00Z',
          scheduled_end: '2026-11-25T01:00:00Z',
        },
      },
    );
    await env.project();
  });
  afterAll(() => env.close());

  const membership = async () => {
    const keys = partitionKeys(tag);
    const sets = [keys.pages, keys.dirty, keys.dirtyIncidents, keys.dirtyMaintenances];
    const inSets = await Promise.all(sets.map((key) => env.redis.sismember(key, SLUG)));
    const avail = (await env.redis.smembers(keys.dirtyAvailability)).filter((m) => m.startsWith(`${SLUG}|`));
    const due = await env.redis.zscore(keys.due, SLUG);
    return { pages: inSets[0], dirty: inSets.slice(1), avail, due };
  };

  it('leaves the page, dirty and due sets once its deletion is rendered, and no tick renders it again', async () => {
    expect(await membership()).toMatchObject({ pages: 1, due: expect.any(String) as string });
    await env.append({ type: 'page.deleted', page: SLUG, at: '2026-11-22T12:00:00Z', data: {} });
    await env.project();
    expect(await membership()).toEqual({ pages: 0, dirty: [0, 0, 0], avail: [], due: null });
    expect(await env.redis.keys(`${tag}:pg:${SLUG}:avail:*`)).toEqual([]);
    env.setNow('2026-11-22T12:05:00Z');
    const renders = await collectRenders(env.redis, tag, { tick: true, now: env.now().getTime() });
    expect(renders.map((r) => r.slug)).not.toContain(SLUG);
    // Configured again, it is a page like any other.
    await env.append(pageConfigured(SLUG, {}, '2026-11-22T12:05:00Z'));
    await env.project();
    expect((await membership()).pages).toBe(1);
  });
});
