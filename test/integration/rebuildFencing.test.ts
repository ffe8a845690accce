// A killed rebuild leaves nothing behind for long, and two rebuilds cannot both flip: the rebuild
// lock is fenced by its token (renewal, release and activation compare it), and versions nobody
// serves are collected by the next rebuild or worker start.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildLockKey } from '../../projections/store/control/keys.ts';
import { takeRebuildLock } from '../../src/store/control/rebuildLock.ts';
import { activate, createVersion, readActive, RebuildLockLost } from '../../src/store/control/versions.ts';
import { replayLog } from '../../src/projector/replayLog.ts';
import { collectStaleAtStart, rebuild, RebuildRunning } from '../../src/projector/rebuild.ts';
import { twoPagesWithChecks } from '../support/events.ts';
import { dumpVersion } from '../support/readModels.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { scanKeys } from '../../src/store/scanKeys.ts';

describe('rebuild lock and stale versions', () => {
  let env: ProjectorEnv;
  const versionKeys = (version: number) => scanKeys(env.redis, `${env.prefix}:{v${version}.p*`);

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: '2026-11-22T12:00:00Z' });
    await env.append(...twoPagesWithChecks('down'));
    await env.project();
  });
  afterAll(() => env.close());

  it('does not renew a lock that another holder took after it expired', async () => {
    const key = rebuildLockKey(env.prefix);
    const first = (await takeRebuildLock(env.redis, env.prefix, { ttlMs: 300 }))!;
    // The first holder paused past its expiry; a second rebuild took the lock.
    await env.redis.set(key, 'second-holder', 'PX', 60_000);
    await sleep(350); // the first holder's renewals run meanwhile
    expect(await env.redis.get(key)).toBe('second-holder');
    expect(await env.redis.pttl(key)).toBeGreaterThan(50_000); // not cut down to the first's 300 ms
    expect(first.lost()).toBe(true);
    await first.release();
    expect(await env.redis.get(key)).toBe('second-holder'); // not the first holder's to release
    await env.redis.del(key);
  });

  it('activates only for the holder of the lock', async () => {
    const before = await readActive(env.redis, env.prefix);
    const lock = (await takeRebuildLock(env.redis, env.prefix))!;
    await env.redis.set(rebuildLockKey(env.prefix), 'a-newer-rebuild');
    await expect(
      activate(env.redis, env.prefix, { next: { version: 999, partitions: 2 }, now: env.now(), lock }),
    ).rejects.toThrow(RebuildLockLost);
    expect(await readActive(env.redis, env.prefix)).toEqual(before);
    await lock.release();
    await env.redis.del(rebuildLockKey(env.prefix));
  });

  it('a rebuild that lost its lock mid-way does not flip the pointer and deletes what it built', async () => {
    const before = (await readActive(env.redis, env.prefix))!;
    let stolen = false;
    const lost = rebuild(env.deps, {
      prefix: env.prefix,
      partitions: 2,
      graceMs: 0,
      onProgress: () => {
        if (stolen) return;
        stolen = true; // its lock expired while it was paused, and a newer rebuild took it
        void env.redis.set(rebuildLockKey(env.prefix), 'a-newer-rebuild');
      },
    });
    await expect(lost).rejects.toThrow(RebuildLockLost);
    expect(await readActive(env.redis, env.prefix)).toEqual(before);
    expect(await versionKeys(before.version + 1)).toEqual([]);
    expect(await versionKeys(before.version)).not.toEqual([]);
    await env.redis.del(rebuildLockKey(env.prefix));
  });

  it('collects the versions a killed rebuild left, at the next rebuild', async () => {
    const before = (await readActive(env.redis, env.prefix))!;
    const expected = await dumpVersion(env.redis, env.prefix, before.version);
    // What a rebuild killed after replaying the log leaves: a whole version nobody serves.
    const killed = await createVersion(env.redis, env.prefix, 2, env.now());
    await replayLog(env.deps, { prefix: env.prefix, version: killed, partitions: 2 });
    expect((await versionKeys(killed)).length).toBeGreaterThan(10);
    const next = await rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 });
    expect(next.version).toBe(killed + 1);
    expect(await versionKeys(killed)).toEqual([]);
    expect(await env.redis.exists(`${env.prefix}:v${killed}:meta`)).toBe(0);
    expect(await versionKeys(before.version)).toEqual([]); // the version it replaced
    expect(await dumpVersion(env.redis, env.prefix, next.version)).toEqual(expected);
  });

  it('collects them at worker start, and leaves them to a rebuild that is running', async () => {
    const active = (await readActive(env.redis, env.prefix))!;
    const killed = await createVersion(env.redis, env.prefix, 2, env.now());
    await replayLog(env.deps, { prefix: env.prefix, version: killed, partitions: 2 });
    const running = (await takeRebuildLock(env.redis, env.prefix))!;
    expect(await collectStaleAtStart(env.deps, env.prefix)).toBeNull();
    expect((await versionKeys(killed)).length).toBeGreaterThan(10);
    await running.release();
    const collected = await collectStaleAtStart(env.deps, env.prefix);
    expect(collected?.versions).toEqual([killed]);
    expect(await versionKeys(killed)).toEqual([]);
    expect((await versionKeys(active.version)).length).toBeGreaterThan(10);
  });

  it('waits for a start-up collection, and refuses while another rebuild runs', async () => {
    const before = (await readActive(env.redis, env.prefix))!;
    const running = (await takeRebuildLock(env.redis, env.prefix))!;
    await expect(rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 })).rejects.toThrow(
      RebuildRunning,
    );
    await running.release();

    const collecting = (await takeRebuildLock(env.redis, env.prefix, { purpose: 'collect' }))!;
    let settled = false;
    const waiting = rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 }).finally(() => {
      settled = true;
    });
    await sleep(300);
    expect(settled).toBe(false); // still waiting for the collection, not refused
    await collecting.release();
    const built = await waiting;
    expect(built.version).toBeGreaterThan(before.version); // version numbers come from a counter
    expect(await readActive(env.redis, env.prefix)).toEqual(built);
  });
});
