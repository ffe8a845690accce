// The notices the clock makes (notifications.md): a maintenance's reminder before its start, its
// start and its completion when no event said so first. Each is news only for 15 minutes after its
// moment, so a notifier that was down, or a replay, never sends stale ones; the outbox's key makes
// the fact single however many ticks see it.
import { maintenanceJson } from '../lists/maintenanceJson.ts';
import type { MaintenanceDoc } from '../types.ts';
import type { NotifyPage } from './notifyPage.ts';
import { reminderSource, transitionSource, type Notice } from './notice.ts';
import { NEWS_WINDOW_MS } from './planTypes.ts';

/** A notice and the moment it became true (its due time; who was confirmed before hears of it). */
export type ClockNotice = Readonly<{ notice: Notice; moment: number }>;

const MINUTE_MS = 60_000;

const notice = (source: string, type: Notice['type'], doc: MaintenanceDoc, moment: number): ClockNotice => ({
  moment,
  notice: {
    source,
    thread: source,
    coalesces: false,
    type,
    atMs: moment,
    components: doc.components,
    maintenance: maintenanceJson(doc, moment),
  },
});

const recent = (moment: number, nowMs: number): boolean =>
  moment <= nowMs && nowMs - moment <= NEWS_WINDOW_MS;

const ofMaintenance = (
  slug: string,
  doc: MaintenanceDoc,
  reminderMinutes: number,
  nowMs: number,
): ClockNotice[] => {
  if (doc.cancelled) return [];
  const found: ClockNotice[] = [];
  const start = Math.min(doc.startedAt ?? Infinity, doc.scheduledStart);
  const end = Math.min(doc.completedAt ?? Infinity, doc.scheduledEnd);
  const reminder = doc.scheduledStart - reminderMinutes * MINUTE_MS;
  // A reminder only for a maintenance announced before the reminder's moment: one scheduled
  // closer to its start than that was just announced.
  if (
    reminderMinutes > 0 &&
    !doc.started &&
    doc.createdAt < reminder &&
    recent(reminder, nowMs) &&
    nowMs < start
  )
    found.push(
      notice(reminderSource(slug, doc.id, doc.scheduledStart), 'maintenance.reminder', doc, reminder),
    );
  if (recent(start, nowMs) && start < end)
    found.push(notice(transitionSource('started', slug, doc.id), 'maintenance.started', doc, start));
  if (recent(end, nowMs))
    found.push(notice(transitionSource('completed', slug, doc.id), 'maintenance.completed', doc, end));
  return found;
};

/** What the clock says about the page's maintenances at `nowMs`. */
export const clockNotices = (slug: string, page: NotifyPage, nowMs: number): ClockNotice[] => {
  const state = page.state;
  if (state === null || state.deleted) return [];
  return Object.values(state.maintenances).flatMap((doc) =>
    ofMaintenance(slug, doc, page.settings.maintenanceReminderMinutes, nowMs),
  );
};
