// `npx tsx bench/slaTickCost.ts [pages] [rounds]`: what the SLA clock costs the projector per page
// and minute, for quiet pages (5 monitors, a few failures this month and before): the render of
// each page's current month, quarter and year that renderSla does on every new minute. Prints the
// median wall and worker CPU ms of one tick, divided by the pages.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { PageState } from '../projections/types.ts';
import { putAccess } from '../src/models/access/writes.ts';
import { commitWrites } from '../src/models/control/commitWrites.ts';
import { partitionKeys, partitionTag } from '../src/models/control/keys.ts';
import { takeRebuildLock } from '../src/models/control/rebuildLock.ts';
import { activate, createVersion } from '../src/models/control/versions.ts';
import { putPageCore } from '../src/models/pageState/writes.ts';
import { slaPartitionKeys } from '../src/models/sla/keys.ts';
import { timelineKeys } from '../src/models/timeline/keys.ts';
import { renderSla } from '../src/projector/renderSla.ts';
import { encodeReport, encodeSummaries, decodeSummaries } from '../src/models/sla/codec.ts';
import { monthAt, monthsOf, yearPeriod } from '../projections/sla/periods.ts';
import { renderSlaReports } from '../projections/sla/renderReports.ts';
import { slaYearKey, summaryField } from '../src/models/sla/keys.ts';
import { DAY_MS, MINUTE_MS } from '../src/shared/time.ts';
import { dropRedisPrefix, redisUrl } from './benchEnv.ts';

const PAGES = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 15);
const MONITORS = 5;

const pageState = (slug: string, now: number, first: number): PageState => ({
  settings: {
    slug,
    title: slug,
    plan: 'business',
    customDomain: null,
    tokenHash: null,
    blocked: false,
    configuredAt: now,
    timeZone: 'Europe/Berlin',
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

const main = async () => {
  const redis = new Redis(redisUrl());
  const prefix = `slatick${randomBytes(4).toString('hex')}`;
  try {
    const version = await createVersion(redis, prefix, 1, new Date());
    const lock = (await takeRebuildLock(redis, prefix))!;
    await activate(redis, prefix, { version, partitions: 1 }, new Date(), lock);
    await lock.release();
    const tag = partitionTag(prefix, version, 0);
    const now = Date.now();
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
      await redis.del(slaPartitionKeys(tag).tick); // a new minute
      const started = performance.now();
      const usage = process.cpuUsage();
      if (!(await renderSla({ ...deps, now: now + (round + 1) * 1000 }, tag, false)))
        throw new Error('fenced');
      const used = process.cpuUsage(usage);
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    const perPage = (ms: number) => Math.round((ms / PAGES) * 1000) / 1000;
    // Where one page's tick goes (pure steps, in this process): decoding the stored summaries of
    // the other months, computing and rendering the month, quarter and year, encoding them.
    const zone = 'Europe/Berlin';
    const current = monthAt(zone, now);
    const others = monthsOf(yearPeriod(current.year)).filter((m) => m.month < current.month);
    const page = { tag, slug: 'quiet-0' };
    const texts = await redis.hmget(
      slaYearKey(page, current.year),
      ...others.map((m) => summaryField(m.label)),
    );
    const state = pageState('quiet-0', now, 1);
    const stored = new Map(others.map((m, i) => [m.label, decodeSummaries(texts[i]!)!]));
    const input = { slug: 'quiet-0', state, asOf: now, compute: [current], failures: new Map(), stored };
    const each = (work: () => unknown, n = 200) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) work();
      return Math.round(((performance.now() - started) / n) * 1000) / 1000;
    };
    const out = renderSlaReports(input);
    const breakdown = {
      decode_stored_summaries_ms: each(() => texts.map((t) => decodeSummaries(t))),
      // Freshly decoded summaries each time, as a tick has (their daily text is memoised per object).
      render_reports_ms: ((copies) => {
        let i = 0;
        return each(() => renderSlaReports({ ...input, stored: copies[i++]! }), copies.length);
      })(
        Array.from(
          { length: 200 },
          () => new Map(others.map((m, j) => [m.label, decodeSummaries(texts[j]!)!])),
        ),
      ),
      encode_reports_ms: each(() => {
        out.reports.map((r) => encodeReport(r.json));
        out.summaries.map(([, sm]) => encodeSummaries(sm));
      }),
      year_report_bytes: out.reports.find((r) => r.period.months === 12)!.json.length,
    };
    console.log(
      JSON.stringify({
        pages: PAGES,
        monitors_per_page: MONITORS,
        rounds: ROUNDS,
        tick_wall_ms_per_page: perPage(median(wall)),
        tick_worker_cpu_ms_per_page: perPage(median(cpu)),
        one_page_pure_steps: breakdown,
      }),
    );
  } finally {
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
  }
};

await main();
