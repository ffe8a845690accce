// `npx tsx bench/slaTickCost.ts [pages] [rounds]`: what the SLA reports cost quiet pages (5
// monitors, a few failures this month and before). Prints:
// - the worker's SLA work per page and minute (renderSla on each new minute: since reports are
//   assembled at read time it stores the clock's instant and computes only pages whose month
//   completed, so it no longer grows with the pages);
// - the SLA bytes a page keeps in Redis (MEMORY USAGE of its SLA keys);
// - the API's cost of a current-year report: the first read in a minute (assembled from the
//   stored summaries and this month's failures) and then, memoised in the read cache, the others.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { PageState } from '../projections/types.ts';
import { monthAt, yearPeriod } from '../projections/sla/periods.ts';
import { createReadCache } from '../src/http/readCache.ts';
import { readyBody } from '../src/http/send.ts';
import { putAccess } from '../projections/access/storage.ts';
import { commitWrites } from '../src/store/control/commitWrites.ts';
import { partitionKeys, partitionTag } from '../projections/store/control/keys.ts';
import { takeRebuildLock } from '../src/store/control/rebuildLock.ts';
import { activate, createVersion } from '../src/store/control/versions.ts';
import { pagePrefix } from '../projections/store/page.ts';
import { putPageCore } from '../projections/pageState/writes.ts';
import { createSubscriber } from '../src/store/subscriber.ts';
import { createSlaReads } from '../src/readModels/sla/reads.ts';
import { timelineKeys } from '../projections/timeline/keys.ts';
import { renderSla } from '../src/readModels/sla/renderSla.ts';
import { DAY_MS, MINUTE_MS } from '../src/shared/time.ts';
import { dropRedisPrefix, redisUrl } from './benchEnv.ts';

const PAGES = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 15);
const MONITORS = 5;
const ZONE = 'Europe/Berlin';
const SAMPLED_PAGES = 10;
const READS = 200;

const pageState = (slug: string, now: number, first: number): PageState => ({
  settings: {
    slug,
    title: slug,
    plan: 'business',
    customDomain: null,
    tokenHash: null,
    blocked: false,
    configuredAt: now,
    timeZone: ZONE,
    slaTarget: 99.9,
  },
  deleted: false,
  updatedAt: now,
  monitors: Object.fromEntries(
    Array.from({ length: MONITORS }, (_, i) => [
      first + i,
      { id: first + i, name: `M${String(i)}`, type: 'http', impact: 'partial', position: null },
    ]),
  ),
  incidents: {},
  maintenances: {},
});

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round3 = (ms: number) => Math.round(ms * 1000) / 1000;

/** MEMORY USAGE of every key matching `pattern`. */
const bytesOf = async (redis: Redis, pattern: string): Promise<number> => {
  let total = 0;
  for (const key of await redis.keys(pattern))
    total += Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
  return total;
};

const main = async () => {
  const redis = new Redis(redisUrl());
  const prefix = `slatick${randomBytes(4).toString('hex')}`;
  const subscriber = createSubscriber(redis, `${prefix}:api`, pino({ level: 'silent' }));
  const cache = createReadCache(subscriber, prefix, { ttlMs: 1_000, maxBytes: 64 * 1024 * 1024 });
  try {
    const version = await createVersion(redis, prefix, 1, new Date());
    const lock = (await takeRebuildLock(redis, prefix))!;
    await activate(redis, prefix, { next: { version, partitions: 1 }, now: new Date(), lock });
    await lock.release();
    const tag = partitionTag(prefix, version, 0);
    const now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + 5_000;
    const expected = (await redis.get(partitionKeys(tag).checkpoint))!;
    for (let p = 0; p < PAGES; p++) {
      const slug = `quiet-${String(p)}`;
      const state = pageState(slug, now, p * MONITORS + 1);
      const page = { tag, slug };
      await commitWrites(redis, { tag, expected, next: null }, [
        putPageCore(page, state),
        putAccess(page, state),
      ]);
      await redis.sadd(partitionKeys(tag).pages, slug);
      // A few failures: two this month, a handful over the last year.
      const pipeline = redis.pipeline();
      for (const id of Object.keys(state.monitors).map(Number))
        for (const daysAgo of [1, 3, 40, 100, 200, 300]) {
          const start = now - daysAgo * DAY_MS + id * MINUTE_MS;
          pipeline.zadd(
            timelineKeys({ tag, monitorId: id }).down,
            start,
            `${String(start)}:${String(start + 5 * MINUTE_MS)}`,
          );
        }
      await pipeline.exec();
    }
    const deps = { redis, now, log: pino({ level: 'silent' }) };
    if (!(await renderSla(deps, tag, true))) throw new Error('fenced');
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const usage = process.cpuUsage();
      // A new minute each round (within the month: no page's month completes).
      if (!(await renderSla({ ...deps, now: now + (round + 1) * MINUTE_MS }, tag, false)))
        throw new Error('fenced');
      const used = process.cpuUsage(usage);
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    const perPage = (ms: number) => round3(ms / PAGES);

    let pageBytes = 0;
    for (let p = 0; p < SAMPLED_PAGES; p++)
      pageBytes += await bytesOf(redis, `${pagePrefix({ tag, slug: `quiet-${String(p)}` })}:sla*`);
    const partitionBytes = await bytesOf(redis, `${tag}:sla:*`);

    // The API's side: the current year of one page, first assembled, then from the read cache.
    await subscriber.ready();
    const sla = createSlaReads(redis);
    const page = { tag, slug: 'quiet-0' };
    const asOf = (await sla.head(page)).asOf!;
    const year = yearPeriod(monthAt(ZONE, asOf).year);
    const assemble = async (at: number) => {
      const report = await sla.report(page, ZONE, year, at);
      return readyBody(report!.json);
    };
    const first: number[] = [];
    const cpuFirst: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      const usage = process.cpuUsage();
      await assemble(asOf + i * MINUTE_MS); // a new minute each time: nothing memoised
      const used = process.cpuUsage(usage);
      first.push(performance.now() - started);
      cpuFirst.push((used.user + used.system) / 1000);
    }
    const variant = `sla|${year.label}|${String(asOf)}`;
    const body = await cache.get(page, variant, {
      load: () => assemble(asOf),
      bytes: (b) => b.body.length,
      ttlMs: MINUTE_MS,
    });
    const memo: number[] = [];
    for (let i = 0; i < READS; i++) {
      const started = performance.now();
      await cache.get(page, variant, {
        load: () => assemble(asOf),
        bytes: (b) => b.body.length,
        ttlMs: MINUTE_MS,
      });
      memo.push(performance.now() - started);
    }
    console.log(
      JSON.stringify({
        pages: PAGES,
        monitors_per_page: MONITORS,
        rounds: ROUNDS,
        tick_wall_ms_per_page: perPage(median(wall)),
        tick_worker_cpu_ms_per_page: perPage(median(cpu)),
        sla_bytes_per_page: Math.round(pageBytes / SAMPLED_PAGES),
        sla_partition_bytes: partitionBytes,
        current_year_report: {
          bytes: body.body.length,
          first_read_in_a_minute_ms: round3(median(first)),
          first_read_cpu_ms: round3(median(cpuFirst)),
          memoised_read_ms: round3(median(memo)),
          cache: cache.stats(),
        },
      }),
    );
  } finally {
    cache.close();
    await subscriber.close();
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
  }
};

await main();
