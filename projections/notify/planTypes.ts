// The shapes the pure planner reads and writes: a subscriber as planning needs it (never its
// address), the head of a subscriber's thread (for coalescing) and one planned outbox row.
import type { NotificationMessage, NotificationType } from './message.ts';

export type NotifyChannel = 'email' | 'webhook' | 'slack' | 'teams' | 'discord';

/** An active subscriber of a page, without its target: planning never needs the address. */
export type PlannedSubscriber = Readonly<{
  id: string;
  channel: NotifyChannel;
  components: readonly string[];
  monitorStates: boolean;
  /** Epoch ms; only what is appended after it reaches the subscriber. */
  confirmedAt: number;
}>;

/**
 * The latest message of one subscriber's thread (an incident's updates), as the outbox holds it.
 * `open` when it is still pending and was never claimed by a dispatcher: later updates fold into it.
 */
export type ThreadHead = Readonly<{
  source: string;
  messageId: string;
  dueAt: number;
  type: NotificationType;
  open: boolean;
  /** How many updates the message already carries. */
  carries: number;
}>;

/** One outbox row to insert (ON CONFLICT DO NOTHING: a replay plans the same row again). */
export type PlannedNotification = Readonly<{
  source: string;
  subscriberId: string;
  messageId: string;
  page: string;
  thread: string;
  payload: NotificationMessage;
  dueAt: number;
  /** `coalesced`: recorded only, its update travels in `foldInto`'s message. */
  state: 'pending' | 'coalesced';
  /** The open message this update joins: its payload becomes this row's payload. */
  foldInto?: string;
}>;

/** The page settings of page.configured that notifications follow (notifications.md). */
export type NotifyPageSettings = Readonly<{
  maintenanceReminderMinutes: number;
  stateHoldSeconds: number;
}>;

export const DEFAULT_NOTIFY_SETTINGS: NotifyPageSettings = {
  maintenanceReminderMinutes: 60,
  stateHoldSeconds: 60,
};

/** An event notifies only when its `at` is within this of the moment it was appended. */
export const NEWS_WINDOW_MS = 15 * 60_000;
