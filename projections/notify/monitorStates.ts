// A monitor's state notifies only once it has held for the page's state_hold_seconds: the
// notifier tracks the latest state its checks show and since when, and the clock sends a state
// that differs from the last one notified (none yet: up) once it has settled. A flapping monitor
// keeps restarting `since` and sends nothing.
import { formatTimestamp } from '../../src/shared/time.ts';
import type { CheckStatus } from '../../src/events/check.ts';
import type { MonitorConfig } from '../types.ts';
import { monitorSource, type Notice } from './notice.ts';

export type TrackedMonitor = Readonly<{
  state: CheckStatus;
  since: number;
  lastAt: number;
  notifiedState: CheckStatus | null;
}>;

/** The tracked state after a check at `atMs`; a check older than the latest applied changes nothing. */
export const trackCheck = (
  tracked: TrackedMonitor | null,
  status: CheckStatus,
  atMs: number,
): TrackedMonitor => {
  if (tracked === null) return { state: status, since: atMs, lastAt: atMs, notifiedState: null };
  if (atMs < tracked.lastAt) return tracked;
  if (status === tracked.state) return { ...tracked, lastAt: atMs };
  return { ...tracked, state: status, since: atMs, lastAt: atMs };
};

/** Whether the state has held long enough and is not the one last notified. */
export const hasSettled = (tracked: TrackedMonitor, holdMs: number, nowMs: number): boolean =>
  tracked.state !== (tracked.notifiedState ?? 'up') && nowMs - tracked.since >= holdMs;

export const monitorNotice = (page: string, monitor: MonitorConfig, tracked: TrackedMonitor): Notice => ({
  source: monitorSource(page, monitor.id, tracked.since),
  thread: monitorSource(page, monitor.id, tracked.since),
  coalesces: false,
  type: 'monitor.state',
  atMs: tracked.since,
  components: [monitor.name],
  monitor: {
    id: String(monitor.id),
    name: monitor.name,
    state: tracked.state,
    since: formatTimestamp(tracked.since),
  },
});
