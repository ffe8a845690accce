// The read path while the projector is busy: p99 of embed status and charts of a page being
// ingested, with the real worker process projecting `rate` events/s, ÷ the same p99 with the
// projector idle, in alternating rounds (idle, busy, idle, busy …; medians) so that the drift of a
// shared machine weighs on both alike. Twice: with the cores shared by everything, and split
// (bench/cpuLayout.ts: the API server and its client on a core of their own). Between the two,
// freshness: the time from the append commit of a check that changes a page's overall status to
// the first changed answer of embed status, the badge and the charts, sampled repeatedly while
// that load runs on shared cores.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { DatabasePool } from 'slonik';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import type { ProjectorQueue } from '../src/projector/queue.ts';
import { formatTimestamp } from '../src/shared/time.ts';
import { startOfferedLoad, startWorker } from './children.ts';
import { splitCpus } from './cpuLayout.ts';
import { appendAll, benchMonitors, checkEvent, setupEvents, type RawEvent } from './fixtures.ts';
import { httpLoad, type LoadResult } from './httpLoad.ts';
import { percentile, waitForLagZero } from './ingestPhase.ts';
import type { Figure } from './report.ts';

export type UnderLoadContext = Readonly<{
  db: DatabasePool;
  redis: Redis;
  prefix: string;
  queue: ProjectorQueue;
  partitions: number;
  /** Environment of the worker process (REDIS_URL, REDIS_PREFIX, DATABASE_URL). */
  workerEnv: Record<string, string>;
  log: (line: string) => void;
}>;

const PAGES = 4;
const MONITORS_PER_PAGE = 25;
const FRESH = 'bench-fresh';
const FRESH_MONITOR = 9001;
const CONNECTIONS = 10;
const ROUNDS = 3;

type Rounds = Record<'idle' | 'busy', Record<'embed' | 'charts', LoadResult[]>>;

/** The run whose p99 is the median of `runs` (an odd number of them). */
const medianRun = (runs: readonly LoadResult[]): LoadResult =>
  [...runs].sort((a, b) => a.p99 - b.p99)[Math.floor(runs.length / 2)]!;

const freshCheck = (status: 'up' | 'down'): RawEvent => ({
  type: 'check.recorded',
  page: FRESH,
  at: formatTimestamp(Date.now()),
  data: { monitor_id: FRESH_MONITOR, status, response_time_ms: 100 },
});

/** Polls `path` until `changed(text)`; the milliseconds from `since`, or null after 10 s. */
const firstChange = async (url: string, since: number, changed: (text: string) => boolean) => {
  while (performance.now() - since < 10_000) {
    if (changed(await (await fetch(url)).text())) return performance.now() - since;
    await sleep(2);
  }
  return null;
};

export const httpUnderLoad = async (
  ctx: UnderLoadContext,
  app: Readonly<{ url: string; pid: number }>,
  options: { rate: number; duration: number },
): Promise<Figure[]> => {
  const wake = (pages: string[]) => ctx.queue.wakePages(pages, ctx.partitions);
  const monitors = Array.from({ length: PAGES }, (_, p) =>
    benchMonitors(`bench-load-${p + 1}`, 5001 + p * MONITORS_PER_PAGE, MONITORS_PER_PAGE),
  );
  const start = Date.now() - 86_400_000;
  const setup = [
    ...monitors.flatMap((list) => setupEvents(list[0]!.page, list, start)),
    {
      type: 'page.configured',
      page: FRESH,
      at: formatTimestamp(start),
      data: { title: 'Bench freshness', plan: 'growth' },
    },
    {
      type: 'monitor.configured',
      page: FRESH,
      at: formatTimestamp(start),
      data: { monitor_id: FRESH_MONITOR, name: 'API', impact: 'major' },
    },
    freshCheck('up'),
  ];
  const worker = await startWorker({ ...ctx.workerEnv, PROJECTOR_PARTITIONS: String(ctx.partitions) });
  try {
    await appendAll(ctx.db, setup, { batchSize: 1_000, onCommitted: (r) => wake(r.pages) });
    await appendAll(
      ctx.db,
      monitors.flat().map((m) => checkEvent(m, Date.now())),
      {
        batchSize: 1_000,
        onCommitted: (r) => wake(r.pages),
      },
    );
    const page = monitors[0]![0]!.page;
    const paths = {
      embed: `/api/embed/status?slug=${page}&inc=1&rtm=240&upd=30`,
      charts: `/api/status/${page}/charts`,
    };
    for (let tries = 0; (await fetch(app.url + paths.charts)).status !== 200; tries += 1) {
      if (tries > 300) throw new Error(`${paths.charts} never answered 200`);
      await sleep(100);
    }
    const measure = (path: string) =>
      httpLoad(app.url + path, { connections: CONNECTIONS, duration: options.duration });
    // The load, from its own process (bench/offerChecks.ts): this event loop only times answers.
    const load = await startOfferedLoad({
      ...ctx.workerEnv,
      PROJECTOR_PARTITIONS: String(ctx.partitions),
      BENCH_RATE: String(options.rate),
      BENCH_LOAD_PAGES: JSON.stringify(
        monitors.map((list) => ({ page: list[0]!.page, firstId: list[0]!.id, count: list.length })),
      ),
    });
    const measureRounds = async (layout: string): Promise<Rounds> => {
      const rounds: Rounds = { idle: { embed: [], charts: [] }, busy: { embed: [], charts: [] } };
      for (let round = 1; round <= ROUNDS; round += 1) {
        load.pause();
        await waitForLagZero(ctx, 120_000);
        ctx.log(`  ${layout}, round ${round}: projector idle…`);
        rounds.idle.embed.push(await measure(paths.embed));
        rounds.idle.charts.push(await measure(paths.charts));
        load.resume();
        await sleep(1_000);
        ctx.log(`  ${layout}, round ${round}: projector ingesting ${options.rate} events/s…`);
        rounds.busy.embed.push(await measure(paths.embed));
        rounds.busy.charts.push(await measure(paths.charts));
      }
      return rounds;
    };
    const shared = await measureRounds('cores shared');

    // Freshness under the same load, plus readers of the page (so its bodies are cached).
    ctx.log('  freshness…');
    const readers = httpLoad(`${app.url}/api/embed/status?slug=${FRESH}`, {
      connections: CONNECTIONS,
      duration: options.duration * 2,
    });
    const fresh: Record<'embed' | 'badge' | 'charts', number[]> = { embed: [], badge: [], charts: [] };
    let missed = 0;
    const samples = Math.max(10, options.duration * 4);
    for (let i = 0; i < samples; i += 1) {
      const down = i % 2 === 0;
      const overall = down ? '"overall":"major_outage"' : '"overall":"operational"';
      const label = down ? 'Major Outage' : 'Operational';
      await appendEvents(ctx.db, [freshCheck(down ? 'down' : 'up')], {
        now: new Date(),
        onCommitted: (r) => wake(r.pages),
      });
      const committed = performance.now();
      const [embed, badge, charts] = await Promise.all([
        firstChange(`${app.url}/api/embed/status?slug=${FRESH}`, committed, (t) => t.includes(overall)),
        firstChange(`${app.url}/badge/${FRESH}.svg`, committed, (t) => t.includes(label)),
        firstChange(`${app.url}/api/status/${FRESH}/charts`, committed, (t) => t.includes(overall)),
      ]);
      for (const [name, ms] of [
        ['embed', embed],
        ['badge', badge],
        ['charts', charts],
      ] as const) {
        if (ms === null) missed += 1;
        else fresh[name].push(ms);
      }
      await sleep(100);
    }
    await readers;

    const layout = splitCpus([process.pid, app.pid], [worker.pid, load.pid]);
    let split: Rounds | null = null;
    if ('skipped' in layout) ctx.log(`  cores split: skipped (${layout.skipped})`);
    else {
      try {
        split = await measureRounds('cores split');
      } finally {
        layout.undo();
      }
    }
    const achieved = await load.stop();

    const p99Figure = (layout: string, rounds: Rounds, name: 'embed' | 'charts'): Figure => {
      const idle = medianRun(rounds.idle[name]);
      const busy = medianRun(rounds.busy[name]);
      const ratio = busy.p99 / Math.max(idle.p99, 1);
      return {
        section: 'readLoad',
        name: `GET ${paths[name]} p99, projector at ${Math.round(achieved).toLocaleString('en-US')} events/s, ${layout}`,
        unit: 'ms',
        value: busy.p99,
        baseline: { name: 'projector idle', value: idle.p99 },
        ratio,
        // Below a millisecond the client's own scheduling on the shared cores is the noise floor.
        ratioNote:
          idle.p99 < 1
            ? `(idle p99 < 1 ms: ÷ 1 ms; ÷ the idle p99 itself: ${(busy.p99 / Math.max(idle.p99, 0.01)).toFixed(1)}×)`
            : '',
        target: { text: '≤ 3 × idle', met: ratio <= 3 },
        detail: {
          p50_ms: busy.p50,
          p99_ms: busy.p99,
          rps: busy.rps,
          idle_rps: idle.rps,
          idle_p50_ms: idle.p50,
          rounds: ROUNDS,
          idle_p99s_ms: rounds.idle[name].map((r) => r.p99).join(' '),
          busy_p99s_ms: rounds.busy[name].map((r) => r.p99).join(' '),
        },
      };
    };
    const freshFigure = (name: 'embed' | 'badge' | 'charts'): Figure => {
      const p99 = percentile(fresh[name], 99);
      return {
        section: 'readLoad',
        name: `freshness: append commit → changed ${name}, p99 of ${fresh[name].length}`,
        unit: 'ms',
        value: p99,
        baseline: null,
        ratio: null,
        target: { text: '≤ 1,000 ms', met: p99 <= 1_000 && missed === 0 },
        detail: {
          p50_ms: percentile(fresh[name], 50),
          p99_ms: p99,
          max_ms: Math.max(0, ...fresh[name]),
          missed,
        },
      };
    };
    return [
      p99Figure('cores shared', shared, 'embed'),
      p99Figure('cores shared', shared, 'charts'),
      ...(split ? [p99Figure('cores split', split, 'embed'), p99Figure('cores split', split, 'charts')] : []),
      freshFigure('embed'),
      freshFigure('badge'),
      freshFigure('charts'),
    ];
  } finally {
    await worker.stop();
  }
};
