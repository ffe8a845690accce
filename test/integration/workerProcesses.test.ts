// The acceptance run of the projector: N = 1, 2 and 4 worker processes share eight partitions
// while events arrive; one of them is killed (SIGKILL) mid-batch. With one or two, a new process
// joins (a worker added); with four, the other three take its partitions over (a worker removed).
// The models must equal what a single-process rebuild of the same log gives: nothing lost,
// nothing counted twice; the lag returns to zero (the time it took is printed, not asserted).
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { projectionStatus } from '../../src/projector/projectionStatus.ts';
import { createProjectorQueue } from '../../src/projector/queue.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { readActive } from '../../src/models/control/versions.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { dumpVersion } from '../support/readModels.ts';
import { simulatedEvents } from '../support/simulatedLog.ts';
import {
  dropRedisPrefix,
  freshDatabase,
  freshRedisPrefix,
  testRedis,
  type TestDatabase,
} from '../support/testEnv.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = 20;
const MONITORS = 5;
const CHECKS = 600; // 20 × 5 × 600 = 60,000 checks per run, plus configuration and incidents
const PARTITIONS = 8;

describe.each([
  { workers: 1, replace: true },
  { workers: 2, replace: true },
  { workers: 4, replace: false },
])('$workers worker processes, eight partitions, one killed', ({ workers: count, replace }) => {
  let t: TestDatabase;
  const redis = testRedis();
  const testQueueRedis = testRedis();
  const prefix = freshRedisPrefix();
  const workers: ChildProcess[] = [];
  let total = 0;

  const startWorker = () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'work'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        REDIS_URL: inject('redisUrl'),
        REDIS_PREFIX: prefix,
        PROJECTOR_PARTITIONS: String(PARTITIONS),
        PROJECTOR_BATCH_SIZE: '2000',
        WORKER_PROBE_PORT: '0',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    workers.push(child);
    return child;
  };
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

  beforeAll(async () => {
    t = await freshDatabase();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => stop(w, 'SIGKILL')));
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
    testQueueRedis.disconnect();
    await t.close();
  });

  it('projects every event exactly once', async () => {
    const first = startWorker();
    for (let i = 1; i < count; i += 1) startWorker();
    while (!(await readActive(redis, prefix))) await sleep(100); // the workers built the empty models
    // Events arrive while the workers project; one worker is killed half way and replaced.
    const queue = createProjectorQueue(testQueueRedis, prefix);
    let batch: object[] = [];
    let killed = false;
    const flush = async () => {
      const result = await appendEvents(t.db, batch, { now: new Date() });
      total += result.accepted;
      await queue.wakePages(result.pages, PARTITIONS);
      batch = [];
    };
    for (const event of simulatedEvents(PAGES, MONITORS, CHECKS, Date.now() - 60_000)) {
      batch.push(event);
      if (batch.length < 5000) continue;
      await flush();
      if (!killed && total > 30_000) {
        const status = await projectionStatus(t.db, redis, prefix);
        expect(Number(status.projected_position)).toBeGreaterThan(0);
        await stop(first, 'SIGKILL');
        if (replace) startWorker();
        killed = true;
      }
    }
    if (batch.length > 0) await flush();
    await queue.close();
    expect(total).toBe(PAGES * MONITORS * CHECKS + PAGES * (MONITORS + 2));
    let zeroSince = 0;
    const appended = Date.now();
    for (const started = Date.now(); Date.now() - started < 240_000;) {
      await sleep(200);
      const status = await projectionStatus(t.db, redis, prefix);
      if (status.lag_events === 0 && status.log_position === String(total)) {
        zeroSince ||= Date.now();
        if (Date.now() - zeroSince > 1500) break; // reached lag 0 and stayed there
      } else zeroSince = 0;
    }
    expect(await projectionStatus(t.db, redis, prefix)).toMatchObject({ lag_events: 0, lag_seconds: 0 });
    console.log(
      `${count} workers: lag 0 ${((zeroSince - appended) / 1000).toFixed(1)} s after the last append`,
    );
    await Promise.all(workers.map((w) => stop(w, 'SIGTERM')));

    const active = (await readActive(redis, prefix))!;
    expect(active).toEqual({ version: 1, partitions: PARTITIONS }); // built once, by one of the workers
    const byWorkers = await dumpVersion(redis, prefix, active.version, true);
    const deps = {
      db: t.db,
      redis,
      clock: systemClock,
      urls: { baseUrl: 'http://x', pageUrlTemplate: '{base_url}/s/{slug}' },
      batchSize: 5000,
      log: pino({ level: 'silent' }),
    };
    const rebuilt = await rebuild(deps, { prefix, partitions: PARTITIONS, graceMs: 0 });
    const single = await dumpVersion(redis, prefix, rebuilt.version, true);
    expect(byWorkers.size).toBeGreaterThan(PAGES * MONITORS * 3);
    expect([...single.keys()]).toEqual([...byWorkers.keys()]);
    for (const [key, value] of byWorkers) expect({ key, value: single.get(key) }).toEqual({ key, value });
  }, 300_000);
});
