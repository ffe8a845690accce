// Rebuild throughput (src/projector/rebuild.ts over the whole log) against a raw keyset read of
// the same log, and Redis memory per monitor at full retention against the PostgreSQL bytes of
// the same monitors' checks.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import type { RedisClient } from '../src/store/redisClient.ts';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { rebuild } from '../src/projector/rebuild.ts';
import type { ProjectorDeps } from '../src/projector/runPartition.ts';
import { partitionTag } from '../projections/store/control/keys.ts';
import { monitorKeyPattern } from '../projections/store/monitor.ts';
import { pageKeyPattern } from '../projections/store/page.ts';
import { partitionOf } from '../src/shared/pageHash.ts';
import type { Figure } from './report.ts';

const rawKeysetRead = async (db: DatabasePool): Promise<{ rows: number; seconds: number }> => {
  const started = performance.now();
  let tx = '0';
  let pos = '0';
  let rows = 0;
  for (;;) {
    const batch = await db.query(sql.unsafe`
      SELECT transaction_id::text AS tx, position::text AS pos, type, page, at, data FROM event_log
      WHERE (transaction_id, position) > (${tx}::xid8, ${pos}::bigint)
      ORDER BY transaction_id, position LIMIT 5000`);
    const last = batch.rows.at(-1) as { tx: string; pos: string } | undefined;
    if (!last) break;
    rows += batch.rows.length;
    ({ tx, pos } = last);
  }
  return { rows, seconds: (performance.now() - started) / 1000 };
};

type Probe = Readonly<{ pings: number; max_ms: number; p99_ms: number; p50_ms: number }>;

/** Starts the PING probe (latencyProbe.ts) in a process of its own; `stop` answers what it measured. */
const startProbe = async (redisUrl: string): Promise<{ stop: () => Promise<Probe> }> => {
  const script = fileURLToPath(new URL('./latencyProbe.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, redisUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  while (!out.includes('ready\n')) await new Promise((resolve) => setTimeout(resolve, 20));
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
      return JSON.parse(out.split('\n').filter(Boolean).at(-1)!) as Probe;
    },
  };
};

/** The slowest of our own commands Redis logged (SLOWLOG keeps those over its threshold, 10 ms by default). */
const slowestLogged = async (redis: RedisClient, prefix: string, sinceSeconds: number): Promise<number> => {
  const entries = (await redis.call('SLOWLOG', 'GET', '1000')) as [number, number, number, string[]][];
  const ours = entries.filter(([, at, , args]) => at >= sinceSeconds && args.some((a) => a.includes(prefix)));
  return Math.max(0, ...ours.map(([, , micros]) => micros / 1000));
};

export const rebuildPhase = async (
  deps: ProjectorDeps,
  options: { prefix: string; partitions: number; redisUrl: string; log: (line: string) => void },
): Promise<Figure[]> => {
  const raw = await rawKeysetRead(deps.db);
  options.log(`  raw keyset read: ${Math.round(raw.rows / raw.seconds)} rows/s`);
  const probe = await startProbe(options.redisUrl);
  const since = Math.floor(Date.now() / 1000);
  const started = performance.now();
  let events = 0;
  const done = new Map<number, number>();
  await rebuild(deps, {
    prefix: options.prefix,
    partitions: options.partitions,
    graceMs: 0,
    onProgress: ({ partition, events: n }) => void done.set(partition, n),
  });
  const seconds = (performance.now() - started) / 1000;
  const latency = await probe.stop();
  const slowlog = await slowestLogged(deps.redis, options.prefix, since);
  options.log(
    `  Redis PING during the rebuild: max ${latency.max_ms.toFixed(1)} ms, p99 ${latency.p99_ms.toFixed(1)} ms`,
  );
  for (const n of done.values()) events += n;
  const rate = events / seconds;
  options.log(`  rebuild: ${Math.round(rate)} events/s`);
  return [
    {
      section: 'rebuild',
      name: `rebuild of ${events.toLocaleString('en-US')} events, ${options.partitions} partitions`,
      unit: 'events/s',
      value: rate,
      baseline: { name: 'raw keyset read', value: raw.rows / raw.seconds },
      ratio: rate / (raw.rows / raw.seconds),
      target: { text: '≥ 100,000 events/s', met: rate >= 100_000 },
      detail: { seconds, raw_read_seconds: raw.seconds },
    },
    {
      section: 'rebuild',
      name: 'worst Redis command latency during the rebuild (PING every 5 ms, own process)',
      unit: 'ms',
      value: latency.max_ms,
      baseline: { name: 'median PING', value: latency.p50_ms },
      ratio: null,
      target: { text: '≤ 50 ms', met: latency.max_ms <= 50 },
      detail: {
        p50_ms: latency.p50_ms,
        p99_ms: latency.p99_ms,
        pings: latency.pings,
        slowest_logged_ms: slowlog,
        note: "slowest_logged_ms: the slowest of the rebuild's own commands in SLOWLOG (over 10 ms; 0 when none)",
      },
    },
  ];
};

/** MEMORY USAGE of every key matching `pattern`, also by kind (`min`, `recent`, …: the key's last part but day numbers). */
export const usage = async (
  redis: Redis,
  pattern: string,
  kinds?: Map<string, number>,
): Promise<{ bytes: number; keys: number }> => {
  let cursor = '0';
  let bytes = 0;
  let keys = 0;
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of found) {
      const used = Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
      bytes += used;
      keys += 1;
      const kind = key.replace(/:\d+$/, '').split(':').at(-1) ?? key;
      kinds?.set(kind, (kinds.get(kind) ?? 0) + used);
    }
  } while (cursor !== '0');
  return { bytes, keys };
};

export const memoryPhase = async (
  redis: Redis,
  db: DatabasePool,
  options: {
    prefix: string;
    version: number;
    partitions: number;
    slug: string;
    monitors: readonly number[];
    table: string;
    tableDays: number;
    label: string;
  },
): Promise<Figure[]> => {
  const tag = partitionTag(options.prefix, options.version, partitionOf(options.slug, options.partitions));
  let monitorBytes = 0;
  let monitorKeys = 0;
  const kinds = new Map<string, number>();
  for (const id of options.monitors) {
    const used = await usage(redis, monitorKeyPattern({ tag, monitorId: id }), kinds);
    monitorBytes += used.bytes;
    monitorKeys += used.keys;
  }
  const page = await usage(redis, pageKeyPattern({ tag, slug: options.slug }));
  const n = options.monitors.length;
  const pgBytes = await db.oneFirst(sql.type(z.object({ size: z.string() }))`
    SELECT pg_total_relation_size(${options.table}::regclass)::text AS size`);
  const pgPerMonitorYear = (Number(pgBytes) / n) * (365 / options.tableDays);
  const perMonitor = (monitorBytes + page.bytes) / n;
  const kb = perMonitor / 1024;
  return [
    {
      section: 'memory',
      name: `per monitor, ${n}-monitor page with ${options.label} of history (incl. its share of page outputs)`,
      unit: 'KB',
      value: kb,
      baseline: {
        name: 'PostgreSQL KB of 1 year of minute checks per monitor',
        value: pgPerMonitorYear / 1024,
      },
      ratio: perMonitor / pgPerMonitorYear,
      target: { text: '≤ 200 KB', met: kb <= 200 },
      detail: {
        monitor_keys_bytes_per_monitor: monitorBytes / n,
        monitor_keys_per_monitor: monitorKeys / n,
        ...Object.fromEntries(
          [...kinds].map(([kind, bytes]) => [`monitor_${kind}_bytes_per_monitor`, bytes / n]),
        ),
        page_output_bytes: page.bytes,
        page_keys: page.keys,
        ...(options.tableDays === 365
          ? {}
          : { note: `PostgreSQL baseline scaled from ${options.tableDays} days to a year` }),
      },
    },
  ];
};
