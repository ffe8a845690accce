// Addresses notices to subscribers: scope, confirmation before the append, channels, and the
// coalescing of an incident's updates (notifications.md, "Storms"): the first update after a
// quiet spell goes out at once; later ones within the window after a message join one message
// due when the window ends. Pure: the heads of the threads come in, the rows to insert go out.
import { formatTimestamp } from '../../src/shared/time.ts';
import type { NotificationMessage, NotifiedPage } from './message.ts';
import { messageIdOf } from './messageId.ts';
import { inScope } from './inScope.ts';
import type { Notice } from './notice.ts';
import type { PlannedNotification, PlannedSubscriber, ThreadHead } from './planTypes.ts';

export type AddressedNotice = Readonly<{
  notice: Notice;
  page: NotifiedPage;
  /** When it was appended (recorded_at) or the clock found it: who was confirmed before it hears of it. */
  appendedAt: number;
  /** When the first message may go (an event: at once; a clock fact: its moment). */
  dueAt: number;
  subscribers: readonly PlannedSubscriber[];
}>;

/** Key of a thread head: one subscriber's thread. */
export const headKey = (subscriberId: string, thread: string): string => `${subscriberId}\u0000${thread}`;

const reaches = (notice: Notice, subscriber: PlannedSubscriber, appendedAt: number): boolean => {
  if (subscriber.confirmedAt >= appendedAt) return false;
  if (notice.monitor !== undefined && (subscriber.channel === 'email' || !subscriber.monitorStates))
    return false;
  return inScope(subscriber.components, notice.components);
};

const messageOf = (id: string, notice: Notice, page: NotifiedPage): NotificationMessage => ({
  id,
  type: notice.type,
  timestamp: formatTimestamp(notice.atMs),
  page,
  ...(notice.incident === undefined ? {} : { incident: notice.incident }),
  ...(notice.maintenance === undefined ? {} : { maintenance: notice.maintenance }),
  ...(notice.monitor === undefined ? {} : { monitor: notice.monitor }),
});

/**
 * The outbox rows of `notices`, in order. `heads` holds the threads' latest messages as the
 * outbox has them; the notices' own rows become heads as they are planned.
 */
export const planNotices = (
  notices: readonly AddressedNotice[],
  heads: ReadonlyMap<string, ThreadHead>,
  coalesceMs: number,
): PlannedNotification[] => {
  const rows: PlannedNotification[] = [];
  const current = new Map(heads);
  /** Rows planned here that later updates may still change: message id → index in rows. */
  const plannedHere = new Map<string, number>();
  for (const { notice, page, appendedAt, dueAt, subscribers } of notices) {
    for (const subscriber of subscribers) {
      if (!reaches(notice, subscriber, appendedAt)) continue;
      const messageId = messageIdOf(notice.source, subscriber.id);
      const base = {
        source: notice.source,
        subscriberId: subscriber.id,
        page: page.slug,
        thread: notice.thread,
      };
      const key = headKey(subscriber.id, notice.thread);
      const head = notice.coalesces ? current.get(key) : undefined;
      const inWindow = head !== undefined && appendedAt < head.dueAt + coalesceMs;
      if (head !== undefined && inWindow && head.open) {
        // Joins the open message: it now reports the incident as this update leaves it.
        const carries = head.carries + 1;
        const type = head.type === 'incident.opened' ? head.type : notice.type;
        const joined = { ...messageOf(head.messageId, { ...notice, type }, page), coalesced: carries };
        const index = plannedHere.get(head.messageId);
        const planned = index === undefined ? undefined : rows[index];
        if (index !== undefined && planned !== undefined) rows[index] = { ...planned, payload: joined };
        rows.push({
          ...base,
          messageId,
          payload: joined,
          dueAt: appendedAt,
          state: 'coalesced',
          ...(planned === undefined ? { foldInto: head.messageId } : {}),
        });
        current.set(key, { ...head, carries, type });
        continue;
      }
      const due = head !== undefined && inWindow ? Math.min(head.dueAt, appendedAt) + coalesceMs : dueAt;
      rows.push({
        ...base,
        messageId,
        payload: messageOf(messageId, notice, page),
        dueAt: due,
        state: 'pending',
      });
      plannedHere.set(messageId, rows.length - 1);
      if (notice.coalesces)
        current.set(key, {
          source: notice.source,
          messageId,
          dueAt: due,
          type: notice.type,
          open: true,
          carries: 1,
        });
    }
  }
  return rows;
};
