// Purges survive the worker: a real `npm run work` process, SIGKILLed after its render commits
// while the CDN (a local Fastly stand-in, test/support/edgeApis.ts) refuses every purge, then
// started again once the CDN is back: every purge the commits queued arrives, none is lost,
// including the hard purge of a page turned private. And a worker SIGKILLed in the middle of a
// purge call (the stand-in holds it open) leaves a claim that another drainer, or the worker
// started again, takes as soon as the dead worker's heartbeat is gone: the claim's lease is moved
// an hour on first, so only its owner's death can free it.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { projectionStatus } from '../../src/projector/projectionStatus.ts';
import { createProjectorQueue } from '../../src/projector/queue.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { loadConfig } from '../../src/config.ts';
import { activePartitions } from '../../src/edge/activePartitions.ts';
import { createEdgePurger } from '../../src/edge/edgePurger.ts';
import { purgeTargets } from '../../src/edge/providers.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { partitionKeys, partitionTag } from '../../projections/store/control/keys.ts';
import { startFastlyStandIn } from '../support/edgeApis.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { spawnWorker } from '../support/workerFleet.ts';
import { waitForLogHorizon } from '../support/logHorizon.ts';
import {
  dropRedisPrefix,
  freshDatabase,
  freshRedisPrefix,
  testRedis,
  type TestDatabase,
} from '../support/testEnv.ts';

const SERVICE = 'SU1Z0isxPaozGVKXdv0eY';
const TOKEN = 'fastly-token-0123456789';
const PARTITIONS = 2;
const DOWN = { status: 503, body: '{"msg":"Service Unavailable"}' };

const until = async (what: string, done: () => Promise<boolean> | boolean, ms = 90_000) => {
  for (const started = Date.now(); !(await done());) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
};

describe('purges across a worker killed with SIGKILL', () => {
  let t: TestDatabase;
  let redis: RedisClient;
  let prefix: string;
  let fastly: Awaited<ReturnType<typeof startFastlyStandIn>>;
  let worker: ChildProcess | null = null;
  const stopping: (() => Promise<unknown>)[] = [];

  const edgeEnv = () => ({
    EDGE_PURGE: 'fastly',
    FASTLY_SERVICE_ID: SERVICE,
    FASTLY_API_TOKEN: TOKEN,
    FASTLY_API_URL: fastly.url,
  });
  const startWorker = () => {
    worker = spawnWorker(t.url, prefix, { PROJECTOR_PARTITIONS: String(PARTITIONS), ...edgeEnv() });
  };
  const kill = async () => {
    const child = worker;
    worker = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  /** Another drainer beside the worker: the purger `npm run work` runs, in this process. */
  const startPurger = () => {
    const purger = createEdgePurger(purgeTargets(loadConfig(edgeEnv()).edge), {
      redis,
      prefix,
      partitions: activePartitions(createActiveVersionReader(redis, prefix), prefix),
      registry: new Registry(),
      log: pino({ level: 'silent' }),
    });
    stopping.push(() => purger.close());
    return purger;
  };

  const activeTags = async (): Promise<string[]> => {
    const active = await readActive(redis, prefix);
    if (active === null) return [];
    return Array.from({ length: active.partitions }, (_, p) => partitionTag(prefix, active.version, p));
  };
  /** Everything the outboxes of the active version hold, queued or claimed, as `h:key` / `s:key`. */
  const outboxes = async (): Promise<string[]> => {
    const members: string[] = [];
    for (const tag of await activeTags()) {
      const keys = partitionKeys(tag);
      members.push(...(await redis.zrange(keys.purges, 0, -1)));
      members.push(
        ...(await redis.zrange(keys.purgesClaimed, 0, -1)).map((m) => m.slice(m.indexOf('|') + 1)),
      );
    }
    return [...new Set(members)].sort();
  };
  /** What drainers have claimed and not yet seen accepted, as `h:key` / `s:key`. */
  const claimed = async (): Promise<string[]> => {
    const members: string[] = [];
    for (const tag of await activeTags())
      members.push(
        ...(await redis.zrange(partitionKeys(tag).purgesClaimed, 0, -1)).map((m) =>
          m.slice(m.indexOf('|') + 1),
        ),
      );
    return members.sort();
  };
  /** Moves every claim's lease an hour on: from now only its owner's death frees it within the test. */
  const holdLeases = async () => {
    for (const tag of await activeTags()) {
      const key = partitionKeys(tag).purgesClaimed;
      const claims = await redis.zrange(key, 0, -1, 'WITHSCORES');
      for (let i = 0; i < claims.length; i += 2)
        await redis.zadd(key, 'XX', Number(claims[i + 1]) + 3_600_000, claims[i]!);
    }
  };
  /** What the stand-in accepted since call `from`, as `h:key` / `s:key` (a hard purge stands for a soft one too). */
  const accepted = (from: number) =>
    new Set(
      fastly.calls
        .slice(from)
        .filter((c) => c.bad === null)
        .flatMap((c) => c.keys.flatMap((key) => (c.soft ? [`s:${key}`] : [`h:${key}`, `s:${key}`]))),
    );
  const append = async (...events: object[]) => {
    const appended = await appendEvents(t.db, events, { now: new Date() });
    await waitForLogHorizon(t.url);
    const queue = createProjectorQueue(redis, prefix);
    await queue.wakePartitions(Array.from({ length: PARTITIONS }, (_, p) => p));
    await queue.close();
    return appended;
  };
  const caughtUp = async () => (await projectionStatus(t.db, redis, prefix)).lag_events === 0;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

  /** Pages acme and beta, each with a monitor and a check. */
  const twoPages = () => [
    pageConfigured('acme', {}, at(30)),
    monitorConfigured('acme', 1, {}, at(30)),
    check('acme', 1, at(2)),
    pageConfigured('beta', {}, at(30)),
    monitorConfigured('beta', 2, {}, at(30)),
    check('beta', 2, at(2)),
  ];
  /** Pages acme and beta projected by a worker and every purge of them accepted. */
  const projectedAndPurged = async () => {
    startWorker();
    await append(...twoPages());
    await until(
      'the pages projected and their purges accepted',
      async () => (await caughtUp()) && fastly.calls.length > 0 && (await outboxes()).length === 0,
    );
  };
  /**
   * Beta turns private while the stand-in holds every call open: returns once the worker's hard
   * purge of it is in flight, with what the worker had claimed and the calls made so far.
   */
  const privateWhileInFlight = async () => {
    fastly.hold();
    const from = fastly.calls.length;
    await append(pageConfigured('beta', { auth_token: 'a-private-page-token-0123' }, at(1)));
    await until('the worker’s purge call in flight', () => fastly.calls.length > from);
    const taken = await claimed();
    await holdLeases();
    expect(fastly.calls.slice(from)).toEqual([{ keys: ['page-beta'], soft: false, bad: null }]);
    expect(taken).toContain('h:page-beta');
    return { taken, sent: fastly.calls.length };
  };

  /** Every member of `taken` accepted since call `from`, and the outboxes empty. */
  const arrived = async (taken: readonly string[], from: number) => {
    const got = accepted(from);
    return taken.every((m) => got.has(m)) && (await outboxes()).length === 0;
  };

  beforeEach(async () => {
    t = await freshDatabase();
    redis = testRedis();
    prefix = freshRedisPrefix();
    fastly = await startFastlyStandIn(SERVICE, TOKEN);
  });
  afterEach(async () => {
    await kill();
    for (const stop of stopping.splice(0)) await stop();
    fastly.release();
    await fastly.close();
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
    await t.close();
  });

  it('sends every purge its commits queued once started again, the hard purge of a page made private too', async () => {
    fastly.setDown(DOWN);
    startWorker();
    await append(...twoPages());
    await until(
      'the pages projected and their purges refused',
      async () => (await caughtUp()) && fastly.calls.length > 0,
    );
    await append(
      check('acme', 1, at(1), 'down'),
      pageConfigured('beta', { auth_token: 'a-private-page-token-0123' }, at(1)),
    );
    const expected = ['h:page-beta', 's:page-acme.checks'];
    await until('the changes committed, their purges queued', async () => {
      const queued = await outboxes();
      return (await caughtUp()) && expected.every((m) => queued.includes(m));
    });
    const lost = await outboxes(); // what a worker's memory would have lost
    await kill();
    const refused = fastly.calls.length;
    expect(fastly.calls.every((c) => c.bad === null)).toBe(true); // refused by the outage, well formed
    // The first worker built the models (a rebuild: every page purged once active), then committed
    // the check (the checks key) and beta turning private (a hard purge).
    expect(lost).toEqual(expect.arrayContaining(['s:page-acme', 's:page-beta', ...expected]));

    fastly.setDown(null);
    startWorker();
    await until('every queued purge accepted', async () => {
      const got = accepted(refused);
      return lost.every((m) => got.has(m)) && (await outboxes()).length === 0;
    });
    const got = accepted(refused);
    for (const member of lost) expect({ member, purged: got.has(member) }).toEqual({ member, purged: true });
  }, 180_000);

  it('a live drainer takes the claim of a worker killed mid-call once its heartbeat is gone, not when its lease ends', async () => {
    await projectedAndPurged();
    const { taken, sent } = await privateWhileInFlight();
    // The other drainer leaves the claim of a live owner alone (its lease runs for an hour).
    await startPurger().sweepNow();
    expect(fastly.calls.length).toBe(sent);
    await kill();
    fastly.release();
    await until('the claim of the killed worker accepted', () => arrived(taken, sent), 30_000);
    expect(fastly.calls.slice(sent).filter((c) => !c.soft)).toEqual([
      { keys: ['page-beta'], soft: false, bad: null },
    ]);
  }, 180_000);

  it('a sole worker killed mid-call sends what it had claimed as soon as it is started again', async () => {
    await projectedAndPurged();
    const { taken, sent } = await privateWhileInFlight();
    await kill();
    fastly.release();
    startWorker();
    await until('the claim of the killed worker accepted', () => arrived(taken, sent), 30_000);
    expect(fastly.calls.slice(sent).filter((c) => !c.soft)).toEqual([
      { keys: ['page-beta'], soft: false, bad: null },
    ]);
  }, 180_000);
});
