// Every script call that writes the read models stays within MAX_CALL_KEYS keys and MAX_CALL_BYTES
// bytes: a batch too big for one call is cut (its checkpoint moves to the last row kept), a render
// goes in as many calls as it needs, and a batch's deletions may go ahead of it in calls of their
// own. Here a page of 400 monitors, projected in batches of 5,000 rows and rendered at once, must
// give the same models as the same log projected in batches of 50; and a crash between the calls
// of one batch commit must leave nothing counted twice.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readActive } from '../../src/store/control/versions.ts';
import { MAX_CALL_BYTES, MAX_CALL_KEYS } from '../../src/store/encodeWrites.ts';
import { withScripts } from '../../src/store/scripts.ts';
import { projectionStatus } from '../../src/projector/projectionStatus.ts';
import { runPartition } from '../../src/projector/runPartition.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { dumpVersion } from '../support/readModels.ts';

const NOW = '2026-11-22T12:00:00Z';
const MONITORS = 400;

type Call = { keys: number; bytes: number; next: string };

/** Records every commit call the client makes (the calls still go to Redis). */
const recordCalls = (redis: RedisClient, options: { failAfter?: (calls: Call[]) => boolean } = {}) => {
  const client = withScripts(redis);
  const original = client.commitWrites.bind(client);
  const calls: Call[] = [];
  client.commitWrites = (numberOfKeys: number, ...args: string[]) => {
    const call = {
      keys: numberOfKeys,
      bytes: args.reduce((n, a) => n + Buffer.byteLength(a), 0),
      next: args[numberOfKeys + 1]!,
    };
    if (options.failAfter?.(calls)) return Promise.reject(new Error('killed between calls'));
    calls.push(call);
    return original(numberOfKeys, ...args);
  };
  return { calls, restore: () => (client.commitWrites = original) };
};

const events = () => [
  pageConfigured('wide', {}, '2026-11-01T00:00:00Z'),
  pageConfigured('other', {}, '2026-11-01T00:00:00Z'),
  monitorConfigured('other', 9_999, {}, '2026-11-01T00:00:00Z'),
  ...Array.from({ length: MONITORS }, (_, i) => monitorConfigured('wide', i + 1, {}, '2026-11-01T00:00:00Z')),
  ...Array.from({ length: MONITORS }, (_, i) => [
    check('wide', i + 1, '2026-11-22T10:00:00Z', 'up'),
    check('wide', i + 1, '2026-11-22T10:30:00Z', i % 3 === 0 ? 'down' : 'up'),
    check('wide', i + 1, '2026-11-22T11:00:00Z', 'up'),
  ]).flat(),
];

/**
 * Projects every partition with batches of `batchSize` rows until nothing is pending (the reader
 * stops below transactions open anywhere on the shared server, so one pass may stop short).
 */
const projectWith = async (env: ProjectorEnv, batchSize: number, mode: 'continuous' | 'rebuild') => {
  const active = (await readActive(env.redis, env.prefix))!;
  const pass = async () => {
    for (let partition = 0; partition < active.partitions; partition++)
      await runPartition(
        { ...env.deps, batchSize },
        { prefix: env.prefix, version: active.version, partition, partitions: active.partitions },
        { mode },
      );
  };
  await pass();
  while ((await projectionStatus(env.t.db, env.redis, env.prefix)).lag_events > 0) {
    await sleep(5);
    await pass();
  }
};

const dump = async (env: ProjectorEnv) => {
  const active = (await readActive(env.redis, env.prefix))!;
  const models = await dumpVersion(env.redis, env.prefix, active.version);
  // Checkpoints hold transaction ids, which differ between the two databases. Feeds carry the
  // page's latest event time as of the last render that included them, which depends on when
  // renders happened (a projection in small batches renders them earlier), not on commit sizes.
  const compared = [...models].filter(([key]) => !key.endsWith(':ckpt') && !key.endsWith(':feeds'));
  return new Map(compared.map(([key, value]) => [key.replace(env.prefix, 'P'), value]));
};

/** The keys whose values differ (or exist on one side only), with both values. */
const differences = (a: Map<string, unknown>, b: Map<string, unknown>) =>
  [...new Set([...a.keys(), ...b.keys()])]
    .filter((key) => JSON.stringify(a.get(key)) !== JSON.stringify(b.get(key)))
    .map((key) => ({ key, big: a.get(key), small: b.get(key) }));

describe('bounded commits', () => {
  let big: ProjectorEnv;
  let small: ProjectorEnv;

  beforeAll(async () => {
    [big, small] = await Promise.all([
      startProjectorEnv({ now: NOW, partitions: 1 }),
      startProjectorEnv({ now: NOW, partitions: 1 }),
    ]);
    await Promise.all([big.append(...events()), small.append(...events())]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([big.close(), small.close()]);
  });

  it('cuts a batch and splits a render into calls within the caps, with the models of small batches', async () => {
    const recorded = recordCalls(big.redis);
    await projectWith(big, 5_000, 'rebuild');
    recorded.restore();
    await projectWith(small, 50, 'continuous');
    for (const call of recorded.calls) {
      expect(call.keys).toBeLessThanOrEqual(MAX_CALL_KEYS);
      // A single value over the cap goes alone.
      if (call.keys > 2) expect(call.bytes).toBeLessThanOrEqual(MAX_CALL_BYTES + 2_000); // + the checkpoints and the count
    }
    const batchCommits = recorded.calls.filter((c) => c.next !== '');
    expect(batchCommits.length).toBeGreaterThan(1); // 1,603 rows in one read: cut
    const renderCalls = recorded.calls.filter((c) => c.next === '');
    expect(renderCalls.length).toBeGreaterThan(1); // 400 monitors' rendered models: over one call's cap
    expect(differences(await dump(big), await dump(small))).toEqual([]);
  }, 300_000);

  it('a crash between the calls of one batch commit leaves nothing counted twice', async () => {
    const removal = [
      { type: 'page.deleted', page: 'wide', at: '2026-11-22T11:30:00Z', data: {} },
      check('other', 9_999, '2026-11-22T11:30:00Z', 'down'),
    ];
    await Promise.all([big.append(...removal), small.append(...removal)]);
    // The deletions of 400 monitors' models go ahead of the batch in calls of their own: die after the first.
    const crashing = recordCalls(big.redis, { failAfter: (calls) => calls.length === 1 });
    await expect(projectWith(big, 5_000, 'continuous')).rejects.toThrow('killed between calls');
    crashing.restore();
    expect(crashing.calls).toHaveLength(1);
    expect(crashing.calls[0]!.next).toBe(''); // the checkpoint did not move
    await projectWith(big, 5_000, 'continuous');
    await projectWith(small, 50, 'continuous');
    expect(differences(await dump(big), await dump(small))).toEqual([]);
  }, 300_000);
});
