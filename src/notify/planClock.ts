// The clock's side of the notifier, run by a tick: maintenance reminders, starts and completions
// (clockNotices), and monitor states that have held for their page's state_hold_seconds. The
// outbox's key makes each fact single however many ticks, or notifiers, see it.
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { clockNotices } from '../../projections/notify/clockNotices.ts';
import { hasSettled, monitorNotice } from '../../projections/notify/monitorStates.ts';
import { planNotices, type AddressedNotice } from '../../projections/notify/planNotices.ts';
import { notifiedPage } from '../../projections/notify/planLogBatch.ts';
import { NEWS_WINDOW_MS } from '../../projections/notify/planTypes.ts';
import type { UrlSettings } from '../../projections/types.ts';
import { activeSubscribers } from './activeSubscribers.ts';
import { insertPlanned } from './insertPlanned.ts';
import { loadNotifyPages } from './loadNotifyPages.ts';
import { markNotified, readUnsettled } from './trackedMonitors.ts';

export type PlanClockDeps = Readonly<{ db: DatabasePool; urls: UrlSettings; coalesceMs: number }>;

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
  const [loaded, subscribers] = await Promise.all([
    loadNotifyPages(deps.db, pages, null),
    activeSubscribers(deps.db, pages),
  ]);
  const notices: AddressedNotice[] = [];
  for (const [slug, page] of loaded) {
    if (page.state === null) continue;
    for (const { notice, moment } of clockNotices(slug, page, nowMs))
      notices.push({
        notice,
        page: notifiedPage(page.state, deps.urls),
        appendedAt: moment,
        dueAt: moment,
        subscribers: subscribers.get(slug) ?? [],
      });
  }
  return insertPlanned(deps.db, planNotices(notices, new Map(), deps.coalesceMs));
};

const planMonitors = async (deps: PlanClockDeps, nowMs: number): Promise<number> => {
  const unsettled = await readUnsettled(deps.db, 1000);
  if (unsettled.length === 0) return 0;
  const pages = [...new Set(unsettled.map((row) => row.page))];
  const [loaded, subscribers] = await Promise.all([
    loadNotifyPages(deps.db, pages, null),
    activeSubscribers(deps.db, pages),
  ]);
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
    const notices: AddressedNotice[] =
      page?.state && monitor
        ? [
            {
              notice: monitorNotice(row.page, monitor, tracked),
              page: notifiedPage(page.state, deps.urls),
              appendedAt: row.since + holdMs,
              dueAt: nowMs,
              subscribers: subscribers.get(row.page) ?? [],
            },
          ]
        : [];
    // The state is notified (or, with nobody to tell, taken as the baseline) in one step.
    planned += await deps.db.transaction(async (tx) => {
      const inserted = await insertPlanned(tx, planNotices(notices, new Map(), deps.coalesceMs));
      await markNotified(tx, row);
      return inserted;
    });
  }
  return planned;
};

/** Plans what the clock says at `nowMs`; returns the outbox rows inserted. */
export const planClock = async (deps: PlanClockDeps, nowMs: number): Promise<number> =>
  (await planMaintenances(deps, nowMs)) + (await planMonitors(deps, nowMs));
