// What an SLA report costs: the answer of a year beside the answer of a month (sla-reports.md:
// "a report of a year costs at most a few times a month's"), for a page whose monitor flapped
// every other minute for a year (262,800 failures), served by the real app with its read cache
// (reports are assembled at read time and memoised per minute), and each one's first read in a
// minute (assembled). Also the projector's side: the full render of every month (what a zone
// change costs) and the clock's minute, which no longer renders the page.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import type { ReadCache } from '../src/http/readCache.ts';
import type { Subscriber } from '../src/store/subscriber.ts';
import { pino } from 'pino';
import type { PageState } from '../projections/types.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createReadCache } from '../src/http/readCache.ts';
import { createSubscriber } from '../src/store/subscriber.ts';
import { createSlaReads } from '../src/readModels/sla/reads.ts';
import { putAccess } from '../projections/access/storage.ts';
import { commitWrites } from '../src/store/control/commitWrites.ts';
import { partitionKeys, partitionTag } from '../projections/store/control/keys.ts';
import { takeRebuildLock } from '../src/store/control/rebuildLock.ts';
import { activate, createVersion } from '../src/store/control/versions.ts';
import { putPageCore } from '../projections/pageState/writes.ts';
import { slaPartitionKeys } from '../projections/sla/keys.ts';
import { timelineKeys } from '../projections/timeline/keys.ts';
import { renderSla } from '../src/readModels/sla/renderSla.ts';
import { DAY_MS, MINUTE_MS } from '../src/shared/time.ts';
import { monthAt, parsePeriod } from '../projections/sla/periods.ts';
import { dropRedisPrefix } from './benchEnv.ts';
import type { Figure } from './report.ts';

const SLUG = 'sla-flapping';
const ZONE = 'Europe/Berlin';

const pageState = (now: number): PageState => ({
  settings: {
    slug: SLUG,
    title: SLUG,
    plan: 'business',
    customDomain: null,
    tokenHash: null,
    blocked: false,
    configuredAt: now,
    timeZone: ZONE,
    slaTarget: 99.95,
  },
  deleted: false,
  updatedAt: now,
  monitors: { 1: { id: 1, name: 'API', type: 'http', impact: 'partial', position: null } },
  incidents: {},
  maintenances: {},
});

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

export const slaPhase = async (
  redis: Redis,
  options: { prefix: string; days: number; rounds: number; log: (line: string) => void },
): Promise<Figure[]> => {
  const prefix = `${options.prefix}:sla`;
  const version = await createVersion(redis, prefix, 1, new Date());
  const lock = (await takeRebuildLock(redis, prefix))!;
  await activate(redis, prefix, { next: { version, partitions: 1 }, now: new Date(), lock });
  await lock.release();
  const tag = partitionTag(prefix, version, 0);
  const now = Date.now();
  const log = pino({ level: 'silent' });
  let server: Server | undefined;
  let subscriber: Subscriber | undefined;
  let cache: ReadCache | undefined;
  try {
    options.log(`  seeding a monitor down every other minute for ${String(options.days)} days…`);
    const state = pageState(now);
    const fence = { tag, expected: (await redis.get(partitionKeys(tag).checkpoint))!, next: null };
    await commitWrites(redis, fence, [
      putPageCore({ tag, slug: SLUG }, state),
      putAccess({ tag, slug: SLUG }, state),
    ]);
    await redis.sadd(partitionKeys(tag).pages, SLUG);
    const down = timelineKeys({ tag, monitorId: 1 }).down;
    const first = Math.floor((now - options.days * DAY_MS) / MINUTE_MS);
    for (let from = first; from < Math.floor(now / MINUTE_MS) - 2; from += 20_000) {
      const pipeline = redis.pipeline();
      for (let minute = from; minute < from + 20_000 && minute < Math.floor(now / MINUTE_MS) - 2; minute += 2)
        pipeline.zadd(
          down,
          minute * MINUTE_MS,
          `${String(minute * MINUTE_MS)}:${String((minute + 1) * MINUTE_MS)}`,
        );
      await pipeline.exec();
    }
    const failures = await redis.zcard(down);
    const deps = { redis, now, log };
    const full = await timed(async () => {
      if (!(await renderSla(deps, tag, true))) throw new Error('sla bench: fenced');
    });
    const clockRenders: number[] = [];
    for (let round = 0; round < Math.min(options.rounds, 10); round++)
      clockRenders.push(
        await timed(async () => {
          await redis.del(slaPartitionKeys(tag).tick); // a new minute
          if (!(await renderSla(deps, tag, false))) throw new Error('sla bench: fenced');
        }),
      );

    const config = loadConfig({ PUBLIC_BASE_URL: 'http://localhost:3000' });
    subscriber = createSubscriber(redis, `${prefix}:api`, log);
    cache = createReadCache(subscriber, prefix, { ttlMs: 1_000, maxBytes: 64 * 1024 * 1024 });
    await subscriber.ready();
    server = buildApp({ redis, prefix, config, log, subscriber, cache }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const current = monthAt(ZONE, now);
    const month =
      current.month === 1
        ? `${String(current.year - 1)}-12`
        : `${String(current.year)}-${String(current.month - 1).padStart(2, '0')}`;
    const year = String(current.year);
    const get = async (period: string) => {
      const res = await fetch(
        `http://127.0.0.1:${String(port)}/api/status-pages/${SLUG}/sla?period=${period}`,
      );
      if (res.status !== 200) throw new Error(`sla bench: ${period} answered ${String(res.status)}`);
      return (await res.arrayBuffer()).byteLength;
    };
    const [monthBytes, yearBytes] = [await get(month), await get(year)];
    for (let i = 0; i < 20; i++) await Promise.all([get(month), get(year)]); // warm up
    const monthMs: number[] = [];
    const yearMs: number[] = [];
    for (let round = 0; round < options.rounds * 10; round++) {
      monthMs.push(await timed(() => get(month)));
      yearMs.push(await timed(() => get(year)));
    }
    const value = median(yearMs);
    const baseline = median(monthMs);
    const ratio = value / baseline;
    // The first read in a minute: assembled from the summaries (and, for the year, this month's failures).
    const sla = createSlaReads(redis);
    const asOf = (await sla.head({ tag, slug: SLUG })).asOf!;
    const assembled = async (label: string) => {
      const times: number[] = [];
      for (let i = 0; i < 10; i++)
        times.push(
          await timed(() => sla.report({ tag, slug: SLUG }, ZONE, parsePeriod(label)!, asOf + i * 60_000)),
        );
      return Math.round(median(times) * 10) / 10;
    };
    const [monthFirst, yearFirst] = [await assembled(month), await assembled(year)];
    return [
      {
        section: 'sla',
        name: `SLA report of a year (${year}), monitor flapping for ${String(options.days)} days`,
        unit: 'ms',
        value,
        baseline: { name: `report of a month (${month})`, value: baseline },
        ratio,
        target: { text: '≤ 4×', met: ratio <= 4 },
        detail: {
          failures_stored: failures,
          year_bytes: yearBytes,
          month_bytes: monthBytes,
          full_render_ms: Math.round(full),
          clock_render_ms: Math.round(median(clockRenders) * 10) / 10,
          month_first_read_ms: monthFirst,
          year_first_read_ms: yearFirst,
          note: 'median of alternating GETs (read cache: memoised per minute); first read = the assembly a cache miss does; full render = every month of the reach (a zone change); clock render = the minute, no page rendered',
        },
      },
    ];
  } finally {
    if (server) await new Promise((resolve) => server!.close(resolve));
    cache?.close();
    await subscriber?.close();
    await dropRedisPrefix(redis, prefix);
  }
};
