// What happened, before it is addressed to anyone: one notice fans out to the page's subscribers.
// `source` names the fact once (an event's log position, or a clock fact's key) and is half of
// the outbox's primary key.
import type { Incident, Maintenance } from '../../src/contract/responseSchemas.ts';
import type { MonitorState, NotificationType } from './message.ts';

export type Notice = Readonly<{
  source: string;
  /** Updates of one incident share a thread and coalesce; every other notice is its own thread. */
  thread: string;
  coalesces: boolean;
  type: NotificationType;
  /** When what it reports happened (epoch ms): the message's timestamp. */
  atMs: number;
  /** The components it touches, for the subscribers' scope. */
  components: readonly string[];
  incident?: Incident;
  maintenance?: Maintenance;
  monitor?: MonitorState;
}>;

export const logSource = (position: string): string => `log:${position}`;
export const incidentThread = (page: string, incidentId: string): string => `incident:${page}:${incidentId}`;
/** A maintenance starts and completes once, whether an event or the clock says so first. */
export const transitionSource = (
  kind: 'started' | 'completed',
  page: string,
  maintenanceId: string,
): string => `maintenance.${kind}:${page}:${maintenanceId}`;
/** A moved window earns a new reminder. */
export const reminderSource = (page: string, maintenanceId: string, scheduledStart: number): string =>
  `maintenance.reminder:${page}:${maintenanceId}:${String(scheduledStart)}`;
export const monitorSource = (page: string, monitorId: number, since: number): string =>
  `monitor.state:${page}:${String(monitorId)}:${String(since)}`;
