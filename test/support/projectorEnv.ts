// A real projector over a fresh database and Redis prefix, driven in-process: append events
// through the write path, then project every partition until caught up. The clock is pinned
// and movable, so figures can be asserted exactly.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { pino } from 'pino';
import { appendEvents, type AppendResult } from '../../src/eventLog/appendEvents.ts';
import { partitionTag } from '../../projections/store/control/keys.ts';
import { projectionStatus } from '../../src/projector/projectionStatus.ts';
import { runPartition, type ProjectorDeps } from '../../src/projector/runPartition.ts';
import { takeRebuildLock } from '../../src/store/control/rebuildLock.ts';
import { activate, createVersion, readActive } from '../../src/store/control/versions.ts';
import { createRedis } from '../../src/runtime/clients.ts';
import { waitForLogHorizon } from './logHorizon.ts';
import { URLS } from './testUrls.ts';
import { dropRedisPrefix, freshDatabase, freshRedisPrefix, testRedis, type TestDatabase } from './testEnv.ts';

export type ProjectorEnv = {
  t: TestDatabase;
  redis: RedisClient;
  prefix: string;
  partitions: number;
  deps: ProjectorDeps;
  setNow: (iso: string | number) => void;
  now: () => Date;
  append: (...events: object[]) => Promise<AppendResult>;
  project: () => Promise<number>;
  tagOf: (partition: number) => Promise<string>;
  close: () => Promise<void>;
};

export { URLS } from './testUrls.ts';

/** A client of a server the test may stop: its reconnect errors are expected, not unhandled. */
const ownRedis = (url: string): RedisClient => {
  const redis = createRedis({ redisUrl: url, redisClusterNodes: null }, 'queue');
  redis.on('error', () => undefined);
  return redis;
};

export const startProjectorEnv = async (
  /** batchSize: rows per projector batch, 500 unless given; redisUrl: a server of the test's own. */
  options: { partitions?: number; now?: string; batchSize?: number; redisUrl?: string } = {},
): Promise<ProjectorEnv> => {
  const t = await freshDatabase();
  const redis = options.redisUrl === undefined ? testRedis() : ownRedis(options.redisUrl);
  const prefix = freshRedisPrefix();
  const partitions = options.partitions ?? 2;
  let nowMs = Date.parse(options.now ?? '2026-11-22T12:00:00Z');
  const clock = () => new Date(nowMs);
  const deps: ProjectorDeps = {
    db: t.db,
    redis,
    clock,
    urls: URLS,
    batchSize: options.batchSize ?? 500,
    log: pino({ level: 'silent' }),
  };
  const version = await createVersion(redis, prefix, partitions, clock());
  const lock = (await takeRebuildLock(redis, prefix))!;
  await activate(redis, prefix, { next: { version, partitions }, now: clock(), lock });
  await lock.release();

  const projectOnce = async () => {
    const active = await readActive(redis, prefix);
    if (!active) throw new Error('no active version');
    let events = 0;
    for (let partition = 0; partition < active.partitions; partition += 1) {
      const ref = { prefix, version: active.version, partition, partitions: active.partitions };
      const result = await runPartition(deps, ref, { mode: 'continuous' });
      events += result.events;
    }
    return events;
  };
  // The projector reads only below the oldest transaction open anywhere on the server (design
  // notes §1), and test files run in parallel on one server: go on until nothing is pending.
  const project = async () => {
    let events = await projectOnce();
    for (let tries = 0; (await projectionStatus(t.db, redis, prefix)).lag_events > 0; tries += 1) {
      if (tries > 2000) throw new Error('the projector did not catch up');
      await sleep(5);
      events += await projectOnce();
    }
    return events;
  };

  return {
    t,
    redis,
    prefix,
    partitions,
    deps,
    now: clock,
    setNow: (at) => {
      nowMs = typeof at === 'number' ? at : Date.parse(at);
    },
    // Returns once the rows are readable (the reader's horizon is server-wide).
    append: async (...events) => {
      const result = await appendEvents(t.db, events, { now: clock() });
      await waitForLogHorizon(t.url);
      return result;
    },
    project,
    tagOf: async (partition) => partitionTag(prefix, (await readActive(redis, prefix))!.version, partition),
    close: async () => {
      await dropRedisPrefix(redis, prefix);
      redis.disconnect();
      await t.close();
    },
  };
};
