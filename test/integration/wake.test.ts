// The one wake-up policy every door uses after an append (HTTP, CLI, demo agent, simulator) and
// the scheduler's poll, against a real BullMQ queue.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createProjectorQueue,
  createWake,
  wakeAfterAppend,
  wakeAllPartitions,
} from '../../src/projector/queue.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import { formatActive } from '../../projections/store/control/codec.ts';
import { activeKey } from '../../projections/store/control/keys.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { createRecentRuns } from '../../workers/recentRuns.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from '../support/testEnv.ts';

describe('waking the projectors', () => {
  const redis = testRedis();
  const prefix = freshRedisPrefix();
  const queue = createProjectorQueue(redis, prefix);
  // No cache: each test sets the pointer it needs.
  const active = createActiveVersionReader(redis, prefix, { ttlMs: 0 });
  const wake = createWake(queue, active);

  const wokenPartitions = async () =>
    (await queue.queue.getJobs(['waiting', 'delayed', 'prioritized']))
      .map((job) => job.data.partition)
      .sort();

  afterEach(async () => {
    await queue.queue.obliterate({ force: true });
    await redis.del(activeKey(prefix));
  });
  afterAll(async () => {
    await queue.close();
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
  });

  it('wakes the partitions owning the pages under the active version', async () => {
    await redis.set(activeKey(prefix), formatActive({ version: 3, partitions: 4 }));
    const pages = ['acme', 'globex', 'initech', 'umbrella'];
    await wake(pages);
    expect(await wokenPartitions()).toEqual([...new Set(pages.map((p) => partitionOf(p, 4)))].sort());
  });

  it('wakes partition 0, whose job builds the models, when no version is active', async () => {
    await wake(['acme', 'globex']);
    expect(await wokenPartitions()).toEqual([0]);
  });

  it('wakes nothing for an append that added nothing', async () => {
    await wake([]);
    expect(await wokenPartitions()).toEqual([]);
  });

  it('polls every partition of the active version, or partition 0 without one', async () => {
    await wakeAllPartitions(queue, active);
    expect(await wokenPartitions()).toEqual([0]);
    await redis.set(activeKey(prefix), formatActive({ version: 3, partitions: 3 }));
    await wakeAllPartitions(queue, active);
    expect(await wokenPartitions()).toEqual([0, 1, 2]);
  });

  it('polls only the partitions no job of this process caught up within the poll period', async () => {
    await redis.set(activeKey(prefix), formatActive({ version: 3, partitions: 3 }));
    let now = 1_000_000;
    const recent = createRecentRuns(5_000, () => now);
    recent.caughtUp(1);
    now += 4_999;
    await wakeAllPartitions(queue, active, recent.quiet);
    expect(await wokenPartitions()).toEqual([0, 2]);
    now += 1;
    await wakeAllPartitions(queue, active, recent.quiet);
    expect(await wokenPartitions()).toEqual([0, 1, 2]);
  });

  it('reports a failed wake-up instead of rejecting: the events are committed already', async () => {
    const failures: unknown[] = [];
    const failure = new Error('redis is away');
    await wakeAfterAppend(
      () => Promise.reject(failure),
      ['acme'],
      (error) => failures.push(error),
    );
    expect(failures).toEqual([failure]);
  });
});
