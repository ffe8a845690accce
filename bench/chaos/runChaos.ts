// The chaos run (README, "Reliability"): the real processes against a Redis (AOF on) and a
// PostgreSQL cluster of its own, steady ingest and reads, and faults one after another: workers,
// the API and a rebuild SIGKILLed at random points, Redis restarted (once after FLUSHALL),
// PostgreSQL restarted, Redis frozen for 10 s; subscribers on every page hear of the incidents.
// Then: lag 0, the models equal a clean rebuild, every notification was sent and received, twice
// only where a crash or a failed attempt left it in flight, and the rebuild sent nothing.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { createDb } from '../../src/eventLog/createDb.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { migrate, withDatabase } from '../../src/eventLog/migrate.ts';
import { elevenApiPaths } from '../../test/support/apiPaths.ts';
import { startPgCluster } from '../../test/support/pgCluster.ts';
import { freePort, startRedisServer } from '../../test/support/redisServer.ts';
import { startFleet, waitForHttp, type Fleet } from './processes.ts';
import type { Cause } from './classifyDeliveries.ts';
import { leasedMessages, notifierAtHead, notifyFindings, waitForOutboxDrained } from './notifyChecks.ts';
import type { ChaosReport } from './report.ts';
import { startReceivers } from './subscribers.ts';
import { monitorsOf, PAGES, startAgent, startReaders } from './traffic.ts';
import { compareWithRebuild, logCounts, staleVersions, waitForLagZero } from './verify.ts';

export type ChaosOptions = Readonly<{
  /** A shorter schedule (CI): every fault once, a few seconds apart. */
  short?: boolean;
  progress?: (line: string) => void;
}>;

const PREFIX = 'chaos';
const TOKEN = 'chaos-ingest-token-0123456789';
const URLS = { baseUrl: 'http://chaos.test', pageUrlTemplate: '{base_url}/s/{slug}' };
const between = (min: number, max: number) => min + Math.random() * (max - min);

type Fault = readonly [name: string, act: () => Promise<void>];

export const runChaos = async (options: ChaosOptions = {}): Promise<ChaosReport & { logFile: string }> => {
  const progress = options.progress ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), 'sp-chaos-'));
  const logFile = join(dir, 'processes.log');
  const redis = await startRedisServer({ aof: true });
  const pg = await startPgCluster();
  const receivers = await startReceivers(dir);
  let fleet: Fleet | null = null;
  try {
    const dbUrl = withDatabase(pg.url, 'chaos');
    await migrate(dbUrl);
    const [apiPort, ingestPort] = [await freePort(), await freePort()];
    fleet = startFleet(
      {
        DATABASE_URL: dbUrl,
        REDIS_URL: redis.url,
        REDIS_PREFIX: PREFIX,
        PORT: String(apiPort),
        INGEST_PORT: String(ingestPort),
        INGEST_TOKEN: TOKEN,
        WORKER_PROBE_PORT: '0',
        PROJECTOR_PARTITIONS: '4',
        PUBLIC_BASE_URL: URLS.baseUrl,
        LOG_LEVEL: 'warn',
        // The subscribers' receivers are on this machine, under a CA of the run's own.
        NOTIFY_ALLOW_HOSTS: 'localhost',
        NODE_EXTRA_CA_CERTS: receivers.caFile,
      },
      logFile,
    );
    const processes = fleet;
    processes.start('serve', 'api');
    processes.start('work', 'worker-1');
    processes.start('work', 'worker-2');
    const api = `http://127.0.0.1:${apiPort}`;
    await waitForHttp(`${api}/healthz`);
    const started = Date.now();
    const ingest = `http://127.0.0.1:${ingestPort}`;
    const agent = startAgent(ingest, TOKEN, 200, () => receivers.subscribe(ingest, TOKEN));
    const paths = PAGES.flatMap((page, p) => elevenApiPaths(page, monitorsOf(p)[0]!));
    const readers = startReaders(api, paths);
    await agent.ready;
    progress(`${receivers.subscribers.length} subscribers`);
    // What a crash left claimed and unrecorded may be sent again: noted just after each.
    const inFlight = new Map<string, Cause>();
    const noteInFlight = async (cause: Cause) => {
      for (const id of await leasedMessages(dbUrl)) if (!inFlight.has(id)) inFlight.set(id, cause);
    };

    const admin = redis.admin(); // disconnected by redis.stop()
    const restartWorker = async () => {
      const name = Math.random() < 0.5 ? 'worker-1' : 'worker-2';
      await sleep(between(0, 1000)); // a random point: mid-batch, mid-render or idle
      await processes.kill(name);
      await noteInFlight('worker SIGKILL');
      processes.start('work', name);
    };
    // Redis is flushed early, then a rebuild is killed: the killed rebuild's lock expires and its
    // version is collected by a worker start before the end.
    const faults: Fault[] = [
      ['worker SIGKILL', restartWorker],
      [
        'API SIGKILL',
        async () => {
          await processes.kill('api');
          processes.start('serve', 'api');
        },
      ],
      [
        'Redis FLUSHALL + restart',
        async () => {
          const admin = redis.admin();
          await admin.flushall();
          admin.disconnect();
          await redis.restart();
        },
      ],
      [
        'rebuild SIGKILL',
        async () => {
          // After a flush the workers rebuild first; a second rebuild would only find the lock taken.
          for (let i = 0; i < 300 && !(await readActive(admin, PREFIX)); i += 1) await sleep(100);
          processes.start('rebuild', 'rebuild');
          // Once its version exists (the process takes a few seconds to start), at a random point of
          // the replay or the final render.
          for (let i = 0; i < 400 && (await staleVersions(admin, PREFIX)).length === 0; i += 1)
            await sleep(50);
          await sleep(between(0, 500));
          await processes.kill('rebuild');
          const left = await staleVersions(admin, PREFIX);
          progress(
            `the killed rebuild left ${left.length > 0 ? `version ${left.join(', ')}` : 'no version'}`,
          );
        },
      ],
      ['Redis restart (AOF)', () => redis.restart()],
      ['worker SIGKILL', restartWorker],
      [
        'PostgreSQL restart',
        async () => {
          await pg.restart();
          await noteInFlight('PostgreSQL restart');
        },
      ],
      [
        'Redis SIGSTOP 10 s',
        async () => {
          redis.freeze();
          await sleep(10_000);
          redis.thaw();
        },
      ],
      ['worker SIGKILL', restartWorker],
      [
        'API SIGKILL',
        async () => {
          await processes.kill('api');
          processes.start('serve', 'api');
        },
      ],
    ];
    const counts = new Map<string, number>();
    for (const [name, act] of faults) {
      await sleep(options.short ? between(1000, 2000) : between(8000, 16000));
      progress(`${((Date.now() - started) / 1000).toFixed(0)} s: ${name}`);
      await act();
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    await sleep(options.short ? 1000 : 10_000);
    progress('stopping traffic');
    await agent.stop();
    await readers.stop();
    for (const line of agent.stats.rejected.slice(0, 5)) progress(`refused: ${line}`);
    progress('traffic stopped; waiting for lag 0');

    const db = await createDb(dbUrl);
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    try {
      const status = await waitForLagZero(db, client, PREFIX, 180_000);
      progress(`lag ${status.lag_events}; waiting for the outbox to drain`);
      // A message in flight at the last crash waits out its lease (60 s) before it is sent again.
      await waitForOutboxDrained(db, 180_000);
      progress('stopping the processes');
      const log = await logCounts(db);
      // A killed rebuild's version is collected by the next worker start once its lock expires.
      let stale = await staleVersions(client, PREFIX);
      for (const waitFrom = Date.now(); stale.length > 0 && Date.now() - waitFrom < 60_000;) {
        await sleep(1000);
        stale = await staleVersions(client, PREFIX);
      }
      for (const name of ['worker-1', 'worker-2', 'api']) await processes.kill(name, 'SIGTERM');
      progress('comparing with a clean rebuild');
      const comparison = await compareWithRebuild(db, client, PREFIX, URLS);
      progress('a worker after the rebuild: it must send nothing');
      const receivedBefore = receivers.received().length;
      processes.start('work', 'worker-1');
      // Something new to read: once its notifier has passed it, it has seen the whole log.
      const at = new Date();
      await appendEvents(
        db,
        [
          {
            type: 'page.configured',
            page: 'chaos-after',
            at: at.toISOString(),
            data: { title: 'After', plan: 'growth' },
          },
        ],
        { now: at },
      );
      for (const waitFrom = Date.now(); !(await notifierAtHead(db)) && Date.now() - waitFrom < 60_000;)
        await sleep(200);
      await sleep(2000); // a dispatcher round for anything it might have planned
      await processes.kill('worker-1', 'SIGTERM');
      const notify = await notifyFindings(
        db,
        receivers,
        inFlight,
        receivers.received().length - receivedBefore,
      );
      for (const line of receivers.chatRefused().slice(0, 5)) progress(`chat refused: ${line}`);
      const all = [agent.stats, readers.stats];
      const statusCount = (match: (s: number) => boolean) =>
        all.reduce((n, s) => n + [...s.byStatus].filter(([c]) => match(c)).reduce((a, [, k]) => a + k, 0), 0);
      for (const line of [...agent.stats.slow, ...readers.stats.slow].slice(0, 20)) progress(`slow: ${line}`);
      for (const key of comparison.differing.slice(0, 20)) progress(`differs: ${key}`);
      return {
        logFile,
        seconds: (Date.now() - started) / 1000,
        faults: counts,
        requests: all.reduce((n, s) => n + s.requests, 0),
        unanswered: all.reduce((n, s) => n + s.unanswered, 0),
        status503: statusCount((c) => c === 503),
        other5xx: statusCount((c) => c >= 500 && c !== 503),
        refused: agent.stats.rejected.length,
        slowOver2s: agent.stats.slow.length + readers.stats.slow.length,
        slowestMs: Math.max(agent.stats.slowest, readers.stats.slowest),
        eventsSent: agent.stats.eventsSent,
        eventsAppended: log.events,
        distinctIds: log.ids,
        eventsProjected: log.events - status.lag_events,
        lagEvents: status.lag_events,
        staleVersions: stale.length,
        modelKeys: comparison.keys,
        modelsDiffering: comparison.differing.length,
        notify,
      };
    } finally {
      client.disconnect();
      await db.end();
    }
  } finally {
    await fleet?.stopAll();
    await receivers.close();
    await redis.stop();
    await pg.stop();
  }
};
