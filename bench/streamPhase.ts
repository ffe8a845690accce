// Live streams: N open streams on ONE API process (the real app in a child process). Reports the
// server's memory per open stream (RSS growth ÷ streams) and the time from the start of the
// projector run that commits a change to the moment the last stream received it, against the same
// with a single stream open.
import { readFile } from 'node:fs/promises';
import type { DatabasePool } from 'slonik';
import type { Redis } from 'ioredis';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { runPartition, type ProjectorDeps } from '../src/projector/runPartition.ts';
import { partitionTag } from '../projections/store/control/keys.ts';
import { pageStateKeys } from '../projections/pageState/keys.ts';
import { partitionOf } from '../src/shared/pageHash.ts';
import type { ServerChild } from './children.ts';
import type { Figure } from './report.ts';
import { openStreams } from './streamLoad.ts';

export type StreamPhaseDeps = Readonly<{
  db: DatabasePool;
  redis: Redis;
  projector: ProjectorDeps;
  prefix: string;
  version: number;
  partitions: number;
  server: ServerChild;
  log: (line: string) => void;
}>;

const SLUG = 'demo';
const rssKb = async (pid: number): Promise<number> =>
  Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export const streamPhase = async (deps: StreamPhaseDeps, streams: number): Promise<Figure[]> => {
  const partition = partitionOf(SLUG, deps.partitions);
  const keys = pageStateKeys({ tag: partitionTag(deps.prefix, deps.version, partition), slug: SLUG });
  const state = JSON.parse((await deps.redis.get(keys.state)) ?? '{}') as {
    monitors?: Record<string, unknown>;
  };
  const monitorId = Number(Object.keys(state.monitors ?? {})[0]);
  const latest: number[] = [];
  const arrived: number[] = [];
  let target = Infinity;
  let started = 0;
  const onId = (index: number, id: number) => {
    latest[index] = id;
    if (id >= target && arrived[index] === undefined) {
      arrived[index] = performance.now() - started;
    }
  };
  const url = `${deps.server.url}/api/embed/stream?slug=${SLUG}&inc=1`;

  /** Appends one check and projects it; resolves when `count` streams have the change. */
  const change = async (count: number, responseTimeMs: number) => {
    arrived.length = 0;
    await appendEvents(
      deps.db,
      [
        {
          type: 'check.recorded',
          page: SLUG,
          at: new Date().toISOString(),
          data: { monitor_id: monitorId, status: 'up', response_time_ms: responseTimeMs },
        },
      ],
      { now: new Date() },
    );
    target = Math.max(...latest.filter((id) => id !== undefined)) + 1;
    // The log reader waits for older transactions anywhere in the cluster: run until it projects.
    const ref = { prefix: deps.prefix, version: deps.version, partition, partitions: deps.partitions };
    for (let tries = 0; ; tries++) {
      started = performance.now();
      if ((await runPartition(deps.projector, ref, { mode: 'continuous' })).events > 0) break;
      if (tries > 600) throw new Error('the new check was never projected');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor(() => arrived.filter((t) => t !== undefined).length >= count);
    return [...arrived].sort((a, b) => a - b);
  };

  const first = await openStreams(url, 1, onId);
  await waitFor(() => latest[0] !== undefined);
  const single = await change(1, 4321);
  const before = await rssKb(deps.server.pid);
  deps.log(`  opening ${streams.toLocaleString('en-US')} streams…`);
  const opening = performance.now();
  const rest = await openStreams(url, streams - 1, (i, id) => onId(i + 1, id));
  await waitFor(() => latest.filter((id) => id !== undefined).length >= streams);
  const openSeconds = (performance.now() - opening) / 1000;
  const after = await rssKb(deps.server.pid);
  const all = await change(streams, 1234);
  first.close();
  rest.close();
  const perStreamKb = (after - before) / (streams - 1);
  const last = all[all.length - 1]!;
  return [
    {
      section: 'stream',
      name: `memory per open stream (${streams.toLocaleString('en-US')} on one API process)`,
      unit: 'KB',
      value: perStreamKb,
      baseline: null,
      ratio: null,
      detail: { rss_before_kb: before, rss_after_kb: after, open_seconds: openSeconds },
    },
    {
      section: 'stream',
      name: `one change delivered to all ${streams.toLocaleString('en-US')} streams`,
      unit: 'ms',
      value: last,
      baseline: { name: 'to 1 stream', value: single[0]! },
      ratio: last / single[0]!,
      target: { text: 'p99 ≤ 1,000 ms', met: percentile(all, 99) <= 1000 },
      detail: {
        p50_ms: percentile(all, 50),
        p99_ms: percentile(all, 99),
        note: 'from the start of the projector run that commits a new check to the receipt of its event',
      },
    },
  ];
};

const waitFor = async (ready: () => boolean, timeoutMs = 120_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('streams did not all receive their event in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
