// Real `npm run work` processes over a test database and Redis prefix, for the multi-process
// tests: start and kill them, wait until the projection has caught up, and compare what they
// built with a single-process rebuild of the same log.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { RedisClient as Redis } from '../../src/store/redisClient.ts';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { projectionStatus } from '../../src/projector/projectionStatus.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import type { ProjectorDeps } from '../../src/projector/runPartition.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { dumpVersion } from './readModels.ts';
import { dropRedisPrefix, freshDatabase, freshRedisPrefix, testRedis, type TestDatabase } from './testEnv.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A real `work` process over `databaseUrl` and `prefix` (quiet, probes on a free port), with `env` on top. */
export const spawnWorker = (
  databaseUrl: string,
  prefix: string,
  env: Record<string, string> = {},
): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'work'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: prefix,
      WORKER_PROBE_PORT: '0',
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

type WorkerFleet = Readonly<{
  start: (partitions: number) => ChildProcess;
  stop: (child: ChildProcess, signal: NodeJS.Signals) => Promise<void>;
  stopAll: (signal: NodeJS.Signals) => Promise<void>;
}>;

const workerFleet = (t: () => TestDatabase, prefix: string): WorkerFleet => {
  const workers: ChildProcess[] = [];
  const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      child.once('exit', () => {
        resolve();
      });
      child.kill(signal);
    });
  return {
    start: (partitions) => {
      const child = spawnWorker(t().url, prefix, {
        PROJECTOR_PARTITIONS: String(partitions),
        PROJECTOR_BATCH_SIZE: '2000',
      });
      workers.push(child);
      return child;
    },
    stop,
    stopAll: async (signal) => {
      await Promise.all(workers.map((w) => stop(w, signal)));
    },
  };
};

/**
 * Waits (at most 240 s) until every one of `total` events is projected and stays so for 1.5 s;
 * returns when lag 0 was first seen (epoch ms).
 */
export const waitForLagZero = async (t: TestDatabase, redis: Redis, prefix: string, total: number) => {
  let zeroSince = 0;
  for (const started = Date.now(); Date.now() - started < 240_000;) {
    await sleep(200);
    const status = await projectionStatus(t.db, redis, prefix);
    if (status.lag_events === 0 && status.log_position === String(total)) {
      zeroSince ||= Date.now();
      if (Date.now() - zeroSince > 1500) break; // reached lag 0 and stayed there
    } else zeroSince = 0;
  }
  expect(await projectionStatus(t.db, redis, prefix)).toMatchObject({ lag_events: 0, lag_seconds: 0 });
  return zeroSince;
};

/** A projector in the test process, on the wall clock like the worker processes. */
export const inProcessDeps = (t: TestDatabase, redis: Redis): ProjectorDeps => ({
  db: t.db,
  redis,
  clock: systemClock,
  urls: { baseUrl: 'http://x', pageUrlTemplate: '{base_url}/s/{slug}' },
  batchSize: 5000,
  log: pino({ level: 'silent' }),
});

/**
 * A test file's database, Redis clients, prefix and worker processes, set up before its tests
 * and removed (workers killed) after them.
 */
export const useWorkerFleet = () => {
  const env = {
    t: null as unknown as TestDatabase,
    redis: testRedis(),
    queueRedis: testRedis(),
    prefix: freshRedisPrefix(),
  };
  const fleet = workerFleet(() => env.t, env.prefix);
  beforeAll(async () => {
    env.t = await freshDatabase();
  });
  afterAll(async () => {
    await fleet.stopAll('SIGKILL');
    await dropRedisPrefix(env.redis, env.prefix);
    env.redis.disconnect();
    env.queueRedis.disconnect();
    await env.t.close();
  });
  return { env, fleet };
};

/** Asserts that `version` holds, key by key, what a single-process rebuild of the log builds. */
export const expectEqualToRebuild = async (
  t: TestDatabase,
  redis: Redis,
  prefix: string,
  active: { version: number; partitions: number },
  minimumKeys: number,
) => {
  const byWorkers = await dumpVersion(redis, prefix, active.version, true);
  const rebuilt = await rebuild(inProcessDeps(t, redis), {
    prefix,
    partitions: active.partitions,
    graceMs: 0,
  });
  const single = await dumpVersion(redis, prefix, rebuilt.version, true);
  expect(byWorkers.size).toBeGreaterThan(minimumKeys);
  expect([...single.keys()]).toEqual([...byWorkers.keys()]);
  for (const [key, value] of byWorkers) expect({ key, value: single.get(key) }).toEqual({ key, value });
};
