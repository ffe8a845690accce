// Renders the SLA reports of a partition's pages (docs/read-models.md, "SLA reports"): the pages a
// batch marked (from the earliest instant that changed: a late or backfilled check, a maintenance,
// or everything for a page's or monitor's settings), and on each new minute every page's current
// month, quarter and year. Months are computed from the monitors' failures; quarters and years are
// combined from stored month summaries. Committed under the checkpoint the render read, as pages are.
import type { Span } from '../../projections/sla/intervals.ts';
import {
  monthAt,
  monthsOf,
  periodBounds,
  reachMonths,
  reachYear,
  type Period,
} from '../../projections/sla/periods.ts';
import { enclosing, renderSlaReports, type MonthSummaries } from '../../projections/sla/renderReports.ts';
import { slaSettings } from '../../projections/sla/settings.ts';
import type { PageState } from '../../projections/types.ts';
import { commitWrites } from '../models/control/commitWrites.ts';
import { checkpointRead } from '../models/control/reads.ts';
import type { PageRef } from '../models/page.ts';
import { pageStateRead } from '../models/pageState/reads.ts';
import { listRead, mapRead, readAll, runRead, tupleRead, type Read } from '../models/redis/reads.ts';
import type { RedisClient } from '../models/redis/redisClient.ts';
import type { WriteOp } from '../models/redis/writeOps.ts';
import { partitionPagesRead, slaDirtyRead, slaSummariesRead, slaTickRead } from '../models/sla/reads.ts';
import {
  announceSlaRender,
  clearSlaDirty,
  dropSlaMeta,
  dropSlaYears,
  putSlaMeta,
  putSlaYear,
  setSlaTick,
} from '../models/sla/writes.ts';
import { failuresOverlappingRead, headRead } from '../models/timeline/reads.ts';
import type { Logger } from '../shared/logger.ts';
import { MINUTE_MS } from '../shared/time.ts';

const CHUNK_PAGES = 20;

type Job = Readonly<{ page: PageRef; from: number | null; state: PageState | null }>;
type Plan = Readonly<{ job: Job; state: PageState; requested: Period[]; others: Period[]; full: boolean }>;

const years = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** What a page's render asks for: the months whose figures may have changed. */
const planPage = (job: Job, state: PageState, asOf: number, tick: number | null): Plan => {
  const { zone } = slaSettings(state.settings);
  const reach = reachMonths(zone, asOf);
  const full = job.from === 0;
  const from = job.from;
  const requested = reach.filter((m) => {
    if (from !== null && periodBounds(zone, m)[1] > from) return true;
    if (tick === null) return false;
    return m === reach.at(-1) || m.label === monthAt(zone, tick).label;
  });
  const wanted = new Set(requested.map((m) => m.label));
  const others = enclosing(requested)
    .flatMap(monthsOf)
    .filter((m) => !wanted.has(m.label) && reach.some((r) => r.label === m.label));
  return { job, state, requested, others, full };
};

const failuresRead = (tag: string, monitorId: number, from: number, asOf: number): Read<Span[]> =>
  mapRead(
    tupleRead([failuresOverlappingRead({ tag, monitorId }, from, asOf), headRead({ tag, monitorId })]),
    ([closed, head]) =>
      head?.openDownStart == null ? closed : [...closed, { start: head.openDownStart, end: asOf }],
  );

const renderOne = async (redis: RedisClient, plan: Plan, asOf: number, log: Logger): Promise<WriteOp[]> => {
  const { page } = plan.job;
  const { state } = plan;
  const { zone } = slaSettings(state.settings);
  const first = reachYear(zone, asOf);
  const current = monthAt(zone, asOf);
  const stored = new Map<string, MonthSummaries>();
  const byYear = new Map<number, Period[]>();
  for (const m of plan.full ? [] : plan.others) byYear.set(m.year, [...(byYear.get(m.year) ?? []), m]);
  const found = await runRead(
    redis,
    listRead(
      [...byYear].map(([year, months]) =>
        slaSummariesRead(
          page,
          year,
          months.map((m) => m.label),
        ),
      ),
    ),
  );
  const monitorIds = Object.values(state.monitors).map((m) => m.id);
  const missing: Period[] = [];
  [...byYear.values()].forEach((months, y) =>
    months.forEach((month, i) => {
      const summaries = found[y]![i] ?? null;
      if (summaries !== null && monitorIds.every((id) => summaries.has(id)))
        stored.set(month.label, summaries);
      else missing.push(month);
    }),
  );
  const compute = [...plan.requested, ...missing].sort((a, b) => a.year - b.year || a.month - b.month);
  const writes: WriteOp[] = [];
  if (compute.length > 0) {
    const from = periodBounds(zone, compute[0]!)[0];
    const failures = await runRead(
      redis,
      listRead(monitorIds.map((id) => failuresRead(page.tag, id, from, asOf))),
    );
    const input = {
      slug: page.slug,
      state,
      asOf,
      compute,
      failures: new Map(monitorIds.map((id, i) => [id, failures[i]!])),
      stored,
    };
    let out: ReturnType<typeof renderSlaReports>;
    try {
      out = renderSlaReports(input);
    } catch (error) {
      // A bug in the pure render: the page keeps its reports, the others go on. Reads that fail
      // (Redis) are not caught: the run fails and is retried with the marks still in place.
      log.error({ page: page.slug, error: String(error) }, 'sla render failed');
      return [];
    }
    if (plan.full) writes.push(dropSlaYears(page, years(first - 1, current.year)));
    for (const year of new Set(out.reports.map((r) => r.period.year))) {
      const reports = out.reports
        .filter((r) => r.period.year === year)
        .map((r) => ({ period: r.period.label, json: r.json, csv: r.csv }));
      const summaries = out.summaries.filter(([m]) => m.year === year).map(([m, s]) => [m.label, s] as const);
      writes.push(...putSlaYear(page, year, reports, summaries));
    }
  }
  writes.push(dropSlaYears(page, [first - 1]), putSlaMeta(page, { time_zone: zone, current: current.label }));
  return writes;
};

export type SlaRenderDeps = Readonly<{ redis: RedisClient; now: number; log: Logger }>;

/**
 * Renders the marked pages and, on a new minute (or `force`: the end of a rebuild, which renders
 * every page in full), every page's current periods. Returns false when fenced.
 */
export const renderSla = async (deps: SlaRenderDeps, tag: string, force: boolean): Promise<boolean> => {
  const { redis, now } = deps;
  const asOf = Math.floor(now / 1000) * 1000;
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const [checkpoint, dirty, lastTick] = await readAll(redis, [
    checkpointRead(tag),
    slaDirtyRead(tag),
    slaTickRead(tag),
  ]);
  if (checkpoint === null) return false;
  const tick = force || lastTick < minute;
  const slugs = new Set(dirty.keys());
  if (tick) for (const slug of await runRead(redis, partitionPagesRead(tag))) slugs.add(slug);
  if (slugs.size === 0) return true;
  const all = [...slugs].sort();
  for (let c = 0; c < all.length; c += CHUNK_PAGES) {
    const chunk = all.slice(c, c + CHUNK_PAGES);
    const states = await runRead(redis, listRead(chunk.map((slug) => pageStateRead({ tag, slug }))));
    const writes: WriteOp[] = [];
    for (const [i, slug] of chunk.entries()) {
      const page = { tag, slug };
      const state = states[i] ?? null;
      // The mark goes last: a commit spread over several calls and fenced midway must leave the
      // page marked unless all of its writes went in (the newer runner renders it then).
      const clear = dirty.has(slug) ? [clearSlaDirty(tag, slug)] : [];
      if (state === null || state.deleted) {
        writes.push(
          dropSlaMeta(page),
          dropSlaYears(page, years(2000, monthAt('UTC', asOf).year + 1)),
          ...clear,
        );
        continue;
      }
      const from = force ? 0 : (dirty.get(slug) ?? null);
      const plan = planPage({ page, from, state }, state, asOf, tick ? Math.max(lastTick, 0) : null);
      writes.push(...(await renderOne(redis, plan, asOf, deps.log)), announceSlaRender(page), ...clear);
    }
    if (c + CHUNK_PAGES >= all.length && tick) writes.push(setSlaTick(tag, minute));
    if (!(await commitWrites(redis, { tag, expected: checkpoint, next: null }, writes))) return false;
  }
  return true;
};
