// Recent checks live in one sorted set per hour: every set stays a compact listpack at one check a
// minute, only the hours of the last 25 h (and the anchor) are kept, and a removed monitor leaves
// none behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { runRead } from '../../src/store/reads.ts';
import { scanKeys } from '../../src/store/scanKeys.ts';
import { failuresRead } from '../../src/readModels/timeline/reads.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const HOUR_MS = 3_600_000;
/** Redis's defaults: a sorted set within both stays a listpack. */
const ZSET_LISTPACK_ENTRIES = 128;
const ZSET_LISTPACK_VALUE = 64;

describe('recent checks: one sorted set per hour', () => {
  let env: ProjectorEnv;
  let tag: string;
  let mon: string;
  const start = Date.parse('2026-11-21T10:00:00Z');
  const minute = (i: number) => new Date(start + i * 60_000).toISOString();
  const hourOf = (at: number) => Math.floor(at / HOUR_MS);
  /** The hour sets and the anchor that exist. */
  const recentKeys = async () =>
    [
      ...(await scanKeys(env.redis, `${mon}:recent:*`)),
      ...(await scanKeys(env.redis, `${mon}:anchor`)),
    ].sort();

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:30Z' });
    tag = await env.tagOf(partitionOf('acme', env.partitions));
    mon = `${tag}:mon:1`;
  });
  afterAll(() => env.close());

  it('keeps a day of minute checks in hour sets that each stay a listpack', async () => {
    // 26 hours of checks, one a minute, with a failure now and then.
    const checks = Array.from({ length: 26 * 60 }, (_, i) =>
      check('acme', 1, minute(i), i % 97 < 3 ? 'down' : 'up'),
    );
    await env.append(pageConfigured('acme'), monitorConfigured('acme', 1));
    await env.append(...checks);
    await env.project();

    const last = start + (26 * 60 - 1) * 60_000;
    const cutoff = last - 25 * HOUR_MS;
    const hours = Array.from({ length: hourOf(last) - hourOf(cutoff) + 1 }, (_, i) => hourOf(cutoff) + i);
    expect(await recentKeys()).toEqual([...hours.map((h) => `${mon}:recent:${h}`), `${mon}:anchor`].sort());
    for (const hour of hours) {
      const key = `${mon}:recent:${hour}`;
      const members = await env.redis.zrange(key, 0, -1, 'WITHSCORES');
      expect(members.length / 2).toBeLessThanOrEqual(60);
      expect(members.length / 2).toBeLessThanOrEqual(ZSET_LISTPACK_ENTRIES);
      for (let i = 0; i < members.length; i += 2) {
        expect(members[i]!.length).toBeLessThanOrEqual(ZSET_LISTPACK_VALUE);
        expect(Number(members[i + 1])).toBeGreaterThanOrEqual(Math.max(cutoff, hour * HOUR_MS));
        expect(Number(members[i + 1])).toBeLessThan((hour + 1) * HOUR_MS);
      }
      expect(await env.redis.object('ENCODING', key)).toBe('listpack');
    }
    // Every check from the cutoff on, and the newest before it as the anchor.
    const kept = (await Promise.all(hours.map((h) => env.redis.zcard(`${mon}:recent:${h}`)))).reduce(
      (a, b) => a + b,
    );
    expect(kept).toBe(25 * 60 + 1); // the cutoff falls on a check
    const anchor = await env.redis.zrange(`${mon}:anchor`, 0, -1, 'WITHSCORES');
    expect(anchor).toEqual([expect.stringMatching(/^\d+:u$/), String(cutoff - 60_000)]);
  });

  it('drops the hours the latest check has left behind, keeping the newest older check', async () => {
    const later = Date.parse('2026-11-23T20:00:00Z');
    env.setNow(later + 30_000);
    await env.append(check('acme', 1, new Date(later).toISOString(), 'up'));
    await env.project();
    const previous = start + (26 * 60 - 1) * 60_000;
    expect(await recentKeys()).toEqual([`${mon}:recent:${hourOf(later)}`, `${mon}:anchor`].sort());
    const anchor = await env.redis.zrange(`${mon}:anchor`, 0, -1, 'WITHSCORES');
    expect(anchor).toEqual([expect.stringMatching(/^\d+:u$/), String(previous)]);
  });

  it('replays a late check from the anchor when no recent check comes before it', async () => {
    // Up at 2026-11-22T11:59 (the anchor), up at 2026-11-23T20:00: down at 10:00 in between.
    await env.append(check('acme', 1, '2026-11-23T10:00:00Z', 'down'));
    await env.project();
    const failures = await runRead(
      env.redis,
      failuresRead({ tag, monitorId: 1 }, Date.parse('2026-11-23T00:00:00Z')),
    );
    expect(failures).toEqual([
      { start: Date.parse('2026-11-23T10:00:00Z'), end: Date.parse('2026-11-23T20:00:00Z') },
    ]);
  });

  it('deletes every hour set and the anchor when the monitor is removed', async () => {
    const at = '2026-11-23T20:01:00Z';
    await env.append({ type: 'monitor.removed', page: 'acme', at, data: { monitor_id: 1 } });
    await env.project();
    expect(await recentKeys()).toEqual([]);
    expect(await env.redis.exists(`${mon}:tl`, `${mon}:down`)).toBe(0);
  });
});
