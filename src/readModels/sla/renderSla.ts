// Computes and stores the SLA month summaries of the pages a batch marked or whose month completed;
// reports are assembled from them at read time (docs/read-models.md, "SLA reports").
import { periodBounds, monthAt, reachYear, type Period } from '../../../projections/sla/periods.ts';
import { computeMonths } from '../../../projections/sla/renderReports.ts';
import { slaSettings } from '../../../projections/sla/settings.ts';
import { monthDueAt, monthsToStore } from '../../../projections/sla/storedMonths.ts';
import type { PageState } from '../../../projections/types.ts';
import { commitWrites } from '../../store/control/commitWrites.ts';
import { checkpointRead } from '../../store/control/reads.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { listRead, mapRead, readAll, runRead, tupleRead } from '../../store/reads.ts';
import type { RedisClient } from '../../store/redisClient.ts';
import type { WriteOp } from '../../../projections/store/writeOps.ts';
import {
  partitionPagesRead,
  slaDirtyRead,
  slaDueRead,
  slaFailuresRead,
  slaMetaRead,
  slaPageRead,
  slaTickRead,
} from './reads.ts';
import {
  announceSlaRender,
  clearSlaDirty,
  dropSlaDue,
  dropSlaMeta,
  dropSlaYears,
  putSlaMeta,
  putSlaSummaries,
  setSlaDue,
  setSlaTick,
} from '../../../projections/sla/writes.ts';
import type { SlaMeta } from '../../../projections/sla/codec.ts';
import type { Logger } from '../../shared/logger.ts';
import { must } from '../../shared/must.ts';
import { MINUTE_MS } from '../../shared/time.ts';
import { checksKey } from '../../edge/surrogateKeys.ts';
import { queuePurges } from '../../../projections/store/control/purgeWrites.ts';

/** The reports of `slugs` moved: they carry the checks key. */
const slaKeysOf = (slugs: readonly string[]) => ({ hard: [], soft: slugs.map(checksKey) });

const CHUNK_PAGES = 20;

const years = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

type Job = Readonly<{ page: PageRef; state: PageState; meta: SlaMeta | null; from: number | null }>;

/** A page's writes: the summaries of the months that changed or completed, its meta and when it is due. */
const renderOne = async (redis: RedisClient, job: Job, asOf: number, log: Logger): Promise<WriteOp[]> => {
  const { page, state } = job;
  const { zone } = slaSettings(state.settings);
  const full = job.from === 0 || job.meta?.time_zone !== zone;
  const compute = monthsToStore({
    zone,
    asOf,
    changedFrom: full ? 0 : job.from,
    storedUntil: full ? null : job.meta.current,
  });
  const first = reachYear(zone, asOf);
  const current = monthAt(zone, asOf);
  const writes: WriteOp[] = full ? [dropSlaYears(page, years(first - 1, current.year))] : [];
  const [earliest] = compute;
  if (earliest !== undefined) {
    const from = periodBounds(zone, earliest)[0];
    const ids = Object.values(state.monitors).map((m) => m.id);
    const failuresOf = (id: number) =>
      mapRead(slaFailuresRead(page.tag, id, from, asOf), (list) => [id, list] as const);
    const failures = await runRead(redis, listRead(ids.map(failuresOf)));
    let computed: ReturnType<typeof computeMonths>;
    try {
      computed = computeMonths({
        state,
        asOf,
        compute,
        failures: new Map(failures),
      });
    } catch (error) {
      // A bug in the pure code: the page keeps its summaries, the others go on. Reads that fail
      // (Redis) are not caught: the run fails and is retried with the marks still in place.
      log.error({ page: page.slug, error: String(error) }, 'sla render failed');
      return [];
    }
    const byYear = new Map<number, Period[]>();
    for (const m of compute) byYear.set(m.year, [...(byYear.get(m.year) ?? []), m]);
    for (const [year, months] of byYear)
      writes.push(
        ...putSlaSummaries(
          page,
          year,
          months.map(
            (m) => [m.label, must(computed.get(m.label), 'the summaries of a computed month')] as const,
          ),
        ),
      );
  }
  writes.push(
    dropSlaYears(page, [first - 1]),
    putSlaMeta(page, { time_zone: zone, current: current.label }),
    setSlaDue(page, monthDueAt(zone, asOf)),
  );
  return writes;
};

type SlaRenderDeps = Readonly<{
  redis: RedisClient;
  now: number;
  log: Logger;
  /** Set when an edge is purged: each commit queues the purge of the reports it moved. */
  edgePurge?: Readonly<{ queued?: (tag: string) => void }>;
}>;

/**
 * Computes the marked pages' summaries and, on a new minute, those of the pages whose month
 * completed, then stores the minute's start as reports' `as_of`; `force` (the end of a rebuild)
 * computes every page in full. Returns false when fenced.
 */
export const renderSla = async (deps: SlaRenderDeps, tag: string, force: boolean): Promise<boolean> => {
  const { redis, now } = deps;
  // The current period is reported up to the minute's start: the same instant whichever run of
  // the minute (the first, a later one, a rebuild's) stores it, so a report equals a rebuild's.
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const asOf = minute;
  const [checkpoint, dirty, lastTick, due] = await readAll(redis, [
    checkpointRead(tag),
    slaDirtyRead(tag),
    slaTickRead(tag),
    slaDueRead(tag, asOf),
  ]);
  if (checkpoint === null) return false;
  const tick = force || (lastTick ?? 0) < minute;
  const slugs = new Set(dirty.keys());
  if (tick) for (const slug of due) slugs.add(slug);
  if (force) for (const slug of await runRead(redis, partitionPagesRead(tag))) slugs.add(slug);
  const all = [...slugs].sort();
  const fence = { tag, expected: checkpoint, next: null };
  const pageRead = (slug: string) =>
    mapRead(tupleRead([slaPageRead({ tag, slug }), slaMetaRead({ tag, slug })]), ([state, meta]) => ({
      slug,
      state,
      meta,
    }));
  for (let c = 0; c < all.length; c += CHUNK_PAGES) {
    const chunk = all.slice(c, c + CHUNK_PAGES);
    const found = await runRead(redis, listRead(chunk.map(pageRead)));
    const writes: WriteOp[] = [];
    const moved: string[] = []; // a deleted page is purged hard by its render
    for (const { slug, state, meta } of found) {
      const page = { tag, slug };
      // The mark goes last: a commit spread over several calls and fenced midway must leave the
      // page marked unless all of its writes went in (the newer runner renders it then).
      const clear = dirty.has(slug) ? [clearSlaDirty(tag, slug)] : [];
      if (state === null || state.deleted) {
        const gone = [dropSlaMeta(page), dropSlaDue(page)];
        writes.push(...gone, dropSlaYears(page, years(2000, monthAt('UTC', asOf).year + 1)), ...clear);
        continue;
      }
      const from = force ? 0 : (dirty.get(slug) ?? null);
      writes.push(...(await renderOne(redis, { page, state, meta, from }, asOf, deps.log)));
      writes.push(announceSlaRender(page), ...clear);
      moved.push(slug);
    }
    // The clock goes last, after the summaries of the months it completes: the API never makes a
    // report at an instant whose complete months are not stored yet.
    if (c + CHUNK_PAGES >= all.length && tick) writes.push(setSlaTick(tag, asOf));
    // A rebuild's render (force) is purged by its page keys once the version is active.
    const purges =
      deps.edgePurge && !force && moved.length > 0 ? queuePurges(tag, slaKeysOf(moved), Date.now()) : [];
    if (!(await commitWrites(redis, fence, [...writes, ...purges]))) return false;
    if (purges.length > 0) deps.edgePurge?.queued?.(tag);
  }
  if (all.length === 0 && tick && !(await commitWrites(redis, fence, [setSlaTick(tag, asOf)]))) return false;
  return true;
};
