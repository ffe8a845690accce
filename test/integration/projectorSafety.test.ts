// Exactly-once projection on an at-least-once queue: fencing, retried batches, duplicates,
// and a rebuild that equals the incrementally built models byte for byte.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCheckpoint, readAfter } from '../../src/eventLog/readAfter.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { runPartition } from '../../src/projector/runPartition.ts';
import { projectBatch } from '../../src/projector/projectBatch.ts';
import { partitionKeys } from '../../projections/store/control/keys.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { commitWrites } from '../../src/store/control/commitWrites.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { dumpVersion, keysOf } from '../support/readModels.ts';
import { scenario } from '../support/scenario.ts';

const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

describe('projector safety', () => {
  let env: ProjectorEnv;
  beforeEach(async () => {
    env = await startProjectorEnv({ partitions: 3, now: '2026-11-22T12:00:00Z' });
  });
  afterEach(() => env.close());

  it('fences a zombie: of two runners that read the same batch, exactly one commits', async () => {
    await env.append(
      pageConfigured('z'),
      monitorConfigured('z', 5),
      check('z', 5, '2026-11-22T11:00:00Z', 'up', 100),
    );
    const active = (await readActive(env.redis, env.prefix))!;
    const partition = (
      await Promise.all(
        [0, 1, 2].map(async (p) => ((await keysOf(env, 'z')).state.includes(`p${p}}`) ? p : -1)),
      )
    ).find((p) => p >= 0)!;
    const tag = await env.tagOf(partition);
    const ckptKey = partitionKeys(tag).checkpoint;
    const from = (await env.redis.get(ckptKey))!;
    const read = await readAfter(env.t.db, parseCheckpoint(from), {
      limit: 100,
      partition: { index: partition, count: active.partitions },
    });
    const now = env.now().getTime();
    const [a, b] = [
      await projectBatch(env.redis, { tag, rows: read.rows, now }),
      await projectBatch(env.redis, { tag, rows: read.rows, now }),
    ];
    const next = `${read.scannedTo!.tx}:${read.scannedTo!.pos}`;
    const fence = { tag, expected: from, next };
    expect(await commitWrites(env.redis, fence, a.writes)).toBe(true);
    expect(await commitWrites(env.redis, fence, b.writes)).toBe(false);
    const hours = await env.redis.hgetall(
      `${tag}:mon:5:hr:${Math.floor(Date.parse('2026-11-22T11:00:00Z') / 86_400_000)}`,
    );
    expect(hours).toEqual({ '11:n': '1', '11:rt': '100' }); // counted once
  });

  it('lets concurrent runners of one partition project each event once', async () => {
    const events = scenario('2026-11-22T09:00:00Z', 60);
    for (const batch of chunks(events, 300)) await env.append(...batch);
    const active = (await readActive(env.redis, env.prefix))!;
    // Two runners per partition at once, like a stalled job and its retry.
    await Promise.all(
      [0, 1, 2].flatMap((partition) => {
        const ref = { prefix: env.prefix, version: active.version, partition, partitions: 3 };
        return [
          runPartition(env.deps, ref, { mode: 'continuous' }),
          runPartition(env.deps, ref, { mode: 'continuous' }),
        ];
      }),
    );
    await env.project();
    const concurrent = await dumpVersion(env.redis, env.prefix, active.version);
    const rebuilt = await rebuild(env.deps, { prefix: env.prefix, partitions: 3, graceMs: 0 });
    expect(await dumpVersion(env.redis, env.prefix, rebuilt.version)).toEqual(concurrent);
  });

  it('goes on from where another runner left the partition when the checkpoint it remembers is stale', async () => {
    await env.append(pageConfigured('s'), monitorConfigured('s', 7));
    const active = (await readActive(env.redis, env.prefix))!;
    const ref = { prefix: env.prefix, version: active.version, partitions: 3 };
    const partitions = [0, 1, 2].map((partition) => ({ ...ref, partition }));
    for (const partition of partitions) await runPartition(env.deps, partition, { mode: 'continuous' });
    // Another runner (another process: its commit goes past this process's memory) projects a check.
    await env.append(check('s', 7, '2026-11-22T11:00:00Z', 'up', 100));
    const partition = (
      await Promise.all(
        partitions.map(async (p) => ((await keysOf(env, 's')).state.includes(`p${p.partition}}`) ? p : null)),
      )
    ).find((p) => p !== null)!;
    const tag = await env.tagOf(partition.partition);
    const from = (await env.redis.get(partitionKeys(tag).checkpoint))!;
    const read = await readAfter(env.t.db, parseCheckpoint(from), {
      limit: 100,
      partition: { index: partition.partition, count: active.partitions },
    });
    const other = await projectBatch(env.redis, { tag, rows: read.rows, now: env.now().getTime() });
    const next = `${read.scannedTo!.tx}:${read.scannedTo!.pos}`;
    expect(await commitWrites(env.redis, { tag, expected: from, next }, other.writes)).toBe(true);
    // This process's next job starts from the checkpoint it remembers, is fenced, and goes on.
    await env.append(check('s', 7, '2026-11-22T11:01:00Z', 'down', 100));
    const result = await runPartition(env.deps, partition, { mode: 'continuous' });
    expect(result).toEqual({ events: 1, caughtUp: true, fenced: false });
    const hours = await env.redis.hgetall(
      `${tag}:mon:7:hr:${Math.floor(Date.parse('2026-11-22T11:00:00Z') / 86_400_000)}`,
    );
    expect(hours).toEqual({ '11:n': '2', '11:rt': '200' }); // each check counted once
  });

  it('acknowledges a repeated batch as duplicates and changes no model', async () => {
    const batch = [
      pageConfigured('dup'),
      monitorConfigured('dup', 9),
      check('dup', 9, '2026-11-22T11:59:00Z', 'down', 10),
    ].map((e, i) => ({ ...e, id: `dup-${i}` }));
    await env.append(...batch);
    await env.project();
    const active = (await readActive(env.redis, env.prefix))!;
    const before = await dumpVersion(env.redis, env.prefix, active.version);
    expect(await env.append(...batch)).toMatchObject({ accepted: 0, duplicates: 3 });
    expect(await env.project()).toBe(0);
    expect(await dumpVersion(env.redis, env.prefix, active.version)).toEqual(before);
  });

  it('rebuilds a page with no incident to the same feeds, whatever batches its checks came in', async () => {
    // The feed of a page with no entry is dated by its configuration, not by its latest check:
    // checks do not render feeds, so a date from them would depend on where batches ended.
    await env.append(pageConfigured('quiet'), monitorConfigured('quiet', 9));
    await env.project();
    env.setNow('2026-11-22T11:30:00Z');
    await env.append(check('quiet', 9, '2026-11-22T11:20:00Z', 'up', 80));
    await env.project();
    const active = (await readActive(env.redis, env.prefix))!;
    const incremental = await dumpVersion(env.redis, env.prefix, active.version);
    const rebuilt = await rebuild(env.deps, { prefix: env.prefix, partitions: 3, graceMs: 0 });
    const fresh = await dumpVersion(env.redis, env.prefix, rebuilt.version);
    const feeds = [...incremental.keys()].filter((key) => key.includes('quiet:feeds'));
    expect(feeds.length).toBeGreaterThan(0);
    for (const key of feeds)
      expect({ key, value: fresh.get(key) }).toEqual({ key, value: incremental.get(key) });
  });

  it('rebuilds models equal byte for byte to the incrementally built ones', async () => {
    const events = scenario('2026-11-22T09:00:00Z', 150);
    // Incremental: small batches, projected as they come, the clock moving along.
    for (const batch of chunks(events, 97)) {
      env.setNow(Math.max(...batch.map((e) => Date.parse((e as { at: string }).at))) + 30_000);
      await env.append(...batch);
      await env.project();
    }
    env.setNow('2026-11-22T12:00:00Z');
    await env.project();
    const active = (await readActive(env.redis, env.prefix))!;
    const incremental = await dumpVersion(env.redis, env.prefix, active.version);
    const rebuilt = await rebuild(env.deps, { prefix: env.prefix, partitions: 3, graceMs: 0 });
    expect(rebuilt.version).toBe(active.version + 1);
    const fresh = await dumpVersion(env.redis, env.prefix, rebuilt.version);
    expect([...fresh.keys()]).toEqual([...incremental.keys()]);
    for (const [key, value] of incremental) expect({ key, value: fresh.get(key) }).toEqual({ key, value });
    // The old version is gone, checkpoints first.
    expect((await dumpVersion(env.redis, env.prefix, active.version)).size).toBe(0);
  });
});
