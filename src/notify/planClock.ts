// The clock's side of the notifier, run by a tick: maintenance reminders, starts and completions
// (clockNotices), and monitor states that have held for their page's state_hold_seconds. The
// outbox's key makes each fact single however many ticks, or notifiers, see it. Subscribers are
// read, planned and written a chunk at a time, like the log's batches; a maintenance's fact already
// planned is not addressed again by the next ticks.
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { clockNotices } from '../../projections/notify/clockNotices.ts';
import { hasSettled, monitorNotice } from '../../projections/notify/monitorStates.ts';
import { planChunk, type PageNotice } from '../../projections/notify/planChunk.ts';
import { notifiedPage } from '../../projections/notify/planLogBatch.ts';
import { NEWS_WINDOW_MS } from '../../projections/notify/planTypes.ts';
import type { UrlSettings } from '../../projections/types.ts';
import { insertPlanned } from './insertPlanned.ts';
import { loadNotifyPages } from './loadNotifyPages.ts';
import { forEachSubscriberChunk, SUBSCRIBER_CHUNK } from './subscriberChunks.ts';
import { markNotified, readUnsettled } from './trackedMonitors.ts';

export type PlanClockDeps = Readonly<{
  db: DatabasePool;
  urls: UrlSettings;
  coalesceMs: number;
  /** Subscribers planned at once (SUBSCRIBER_CHUNK). */
  subscriberChunk?: number;
}>;

/** Inserts the rows of `notices` for their pages' subscribers, chunk by chunk; returns how many were new. */
const planForSubscribers = async (
  db: CommonQueryMethods,
  deps: PlanClockDeps,
  notices: readonly PageNotice[],
): Promise<number> => {
  let inserted = 0;
  const pages = [...new Set(notices.map(({ slug }) => slug))];
  await forEachSubscriberChunk(db, pages, deps.subscriberChunk ?? SUBSCRIBER_CHUNK, async (chunk) => {
    inserted += await insertPlanned(db, planChunk(notices, chunk.byPage, new Map(), deps.coalesceMs));
  });
  return inserted;
};

const Page = z.object({ page: z.string() });

/** Pages with subscribers and a maintenance whose window or transition lies near `nowMs`. */
const maintenancePages = async (db: CommonQueryMethods, nowMs: number): Promise<string[]> => {
  const recent = new Date(nowMs - NEWS_WINDOW_MS - 60_000).toISOString();
  const rows = await db.any(sql.type(Page)`
    SELECT DISTINCT e.page FROM event_log e
    WHERE e.type IN ('maintenance.scheduled', 'maintenance.updated', 'maintenance.started', 'maintenance.completed')
      AND e.page IN (SELECT page FROM subscribers WHERE state = 'active')
      AND (e.at >= ${recent}::timestamptz
        OR (e.data->>'scheduled_start')::timestamptz >= ${recent}::timestamptz
        OR (e.data->>'scheduled_end')::timestamptz >= ${recent}::timestamptz)`);
  return rows.map((row) => row.page);
};

const planMaintenances = async (deps: PlanClockDeps, nowMs: number): Promise<number> => {
  const pages = await maintenancePages(deps.db, nowMs);
  if (pages.length === 0) return 0;
  const loaded = await loadNotifyPages(deps.db, pages, null);
  const notices: PageNotice[] = [];
  for (const [slug, page] of loaded) {
    if (page.state === null) continue;
    for (const { notice, moment } of clockNotices(slug, page, nowMs))
      notices.push({
        slug,
        notice,
        page: notifiedPage(page.state, deps.urls),
        appendedAt: moment,
        dueAt: moment,
      });
  }
  // Each fact is planned whole in one transaction: once it has rows, the ticks of its 15 minutes of
  // news skip it instead of addressing every subscriber again every 5 s.
  const planned = await plannedSources(
    deps.db,
    notices.map(({ notice }) => notice.source),
  );
  let inserted = 0;
  for (const notice of notices.filter(({ notice }) => !planned.has(notice.source)))
    inserted += await deps.db.transaction((tx) => planForSubscribers(tx, deps, [notice]));
  return inserted;
};

const Source = z.object({ source: z.string() });

/** Those of `sources` the outbox has rows of (a probe of its key each). */
const plannedSources = async (db: CommonQueryMethods, sources: readonly string[]): Promise<Set<string>> => {
  if (sources.length === 0) return new Set();
  const rows = await db.any(sql.type(Source)`
    SELECT s.source FROM unnest(${sql.array([...sources], 'text')}) AS s(source)
    WHERE EXISTS (SELECT 1 FROM notifications n WHERE n.source = s.source)`);
  return new Set(rows.map((row) => row.source));
};

const planMonitors = async (deps: PlanClockDeps, nowMs: number): Promise<number> => {
  const unsettled = await readUnsettled(deps.db, 1000);
  if (unsettled.length === 0) return 0;
  const pages = [...new Set(unsettled.map((row) => row.page))];
  const loaded = await loadNotifyPages(deps.db, pages, null);
  let planned = 0;
  for (const row of unsettled) {
    const page = loaded.get(row.page);
    const tracked = {
      state: row.state,
      since: row.since,
      lastAt: row.last_at,
      notifiedState: row.notified_state,
    };
    const holdMs = (page?.settings.stateHoldSeconds ?? 60) * 1000;
    if (!hasSettled(tracked, holdMs, nowMs)) continue;
    const monitor = page?.state?.monitors[String(row.monitor_id)];
    const notices: PageNotice[] =
      page?.state && monitor
        ? [
            {
              slug: row.page,
              notice: monitorNotice(row.page, monitor, tracked),
              page: notifiedPage(page.state, deps.urls),
              appendedAt: row.since + holdMs,
              dueAt: nowMs,
            },
          ]
        : [];
    // The state is notified (or, with nobody to tell, taken as the baseline) in one step.
    planned += await deps.db.transaction(async (tx) => {
      const inserted = await planForSubscribers(tx, deps, notices);
      await markNotified(tx, row);
      return inserted;
    });
  }
  return planned;
};

/** Plans what the clock says at `nowMs`; returns the outbox rows inserted. */
export const planClock = async (deps: PlanClockDeps, nowMs: number): Promise<number> =>
  (await planMaintenances(deps, nowMs)) + (await planMonitors(deps, nowMs));
