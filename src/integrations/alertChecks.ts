// Alerts as checks (docs/integrations.md): each alert maps to a monitor of the page by label; a
// monitor is down (or degraded) while any alert mapped to it fires, and up once all have
// resolved. Every alert gives a check at its start and, once resolved, one at its end; their ids
// come from (page, monitor, fingerprint, startsAt, status), so a repeated notification appends nothing.
import { createHash } from 'node:crypto';
import { formatTimestamp } from '../shared/time.ts';
import type { Alert } from './alertPayload.ts';
import type { PageMonitor } from './pageMonitors.ts';

export type MappingOptions = Readonly<{
  monitorLabel: string;
  componentLabel: string;
  /** `severity` values that make a firing alert `degraded` rather than `down`. */
  degraded: ReadonlySet<string>;
}>;

/** One alert as the state keeps it: which monitor, since when, how bad, until when (null: firing). */
export type AlertRow = Readonly<{
  monitorId: number;
  fingerprint: string;
  startsMs: number;
  status: 'down' | 'degraded';
  endsMs: number | null;
}>;

export type Unmapped = Readonly<{ fingerprint: string; alertname: string | null }>;

export type AlertCheck = Readonly<{
  /** Where in the payload the check comes from, to name it if the log refuses it. */
  path: string;
  /** The alert's index in the payload, and which of its edges the check records. */
  index: number;
  edge: 'firing' | 'resolved';
  event: Readonly<{
    id: string;
    type: 'check.recorded';
    page: string;
    at: string;
    data: { monitor_id: number; status: 'up' | 'down' | 'degraded'; response_time_ms: 0 };
  }>;
}>;

const rowKey = (row: Pick<AlertRow, 'monitorId' | 'fingerprint' | 'startsMs'>) =>
  `${row.monitorId}\u0000${row.fingerprint}\u0000${row.startsMs}`;

/** The page's monitor an alert names, by id label first, then by name label; null when none. */
export const monitorOf = (
  alert: Alert,
  monitors: readonly PageMonitor[],
  options: MappingOptions,
): PageMonitor | null => {
  const id = alert.labels[options.monitorLabel];
  const byId = id === undefined ? undefined : monitors.find((m) => String(m.id) === id.trim());
  if (byId) return byId;
  const name = alert.labels[options.componentLabel];
  return name === undefined ? null : (monitors.find((m) => m.name === name) ?? null);
};

const WORST = ['up', 'degraded', 'down'] as const;
type Status = (typeof WORST)[number];

/** The monitor's status at `ms` under the known alerts: the worst of those firing then. */
const statusAt = (rows: readonly AlertRow[], monitorId: number, ms: number): Status => {
  let worst = 0;
  for (const row of rows)
    if (row.monitorId === monitorId && row.startsMs <= ms && (row.endsMs === null || row.endsMs > ms))
      worst = Math.max(worst, WORST.indexOf(row.status));
  return WORST[worst] ?? 'up';
};

export const alertCheckId = (page: string, row: AlertRow, edge: 'firing' | 'resolved'): string =>
  'alert-' +
  createHash('sha256')
    .update([page, row.monitorId, row.fingerprint, row.startsMs, edge].join('\u0000'))
    .digest('hex')
    .slice(0, 40);

/** Merges a notification's alerts into the known ones: a resolution, once known, stays. */
const mergeRows = (known: readonly AlertRow[], reported: readonly AlertRow[]): AlertRow[] => {
  const merged = new Map(known.map((row) => [rowKey(row), row]));
  for (const row of reported) {
    const before = merged.get(rowKey(row));
    merged.set(rowKey(row), { ...row, endsMs: row.endsMs ?? before?.endsMs ?? null });
  }
  return [...merged.values()];
};

/**
 * The checks a notification implies, the alert rows to remember and the alerts that map to no
 * monitor. `known`: the rows remembered for the monitors the alerts map to.
 */
export const planAlertChecks = (input: {
  page: string;
  alerts: readonly Alert[];
  monitors: readonly PageMonitor[];
  options: MappingOptions;
  known: readonly AlertRow[];
}) => {
  const unmapped: Unmapped[] = [];
  const reported: (AlertRow & { index: number })[] = [];
  input.alerts.forEach((alert, index) => {
    const monitor = monitorOf(alert, input.monitors, input.options);
    if (monitor === null) {
      unmapped.push({ fingerprint: alert.fingerprint, alertname: alert.labels['alertname'] ?? null });
      return;
    }
    const severity = alert.labels['severity'];
    reported.push({
      index,
      monitorId: monitor.id,
      fingerprint: alert.fingerprint,
      startsMs: Date.parse(alert.startsAt),
      status: severity !== undefined && input.options.degraded.has(severity) ? 'degraded' : 'down',
      endsMs: alert.status === 'resolved' ? Date.parse(alert.endsAt) : null,
    });
  });
  const rows = mergeRows(
    input.known,
    reported.map(({ index: _index, ...row }) => row),
  );
  const byKey = new Map(rows.map((row) => [rowKey(row), row]));
  const check = (index: number, row: AlertRow, edge: 'firing' | 'resolved', ms: number): AlertCheck => ({
    path: `alerts.${index}.${edge === 'firing' ? 'startsAt' : 'endsAt'}`,
    index,
    edge,
    event: {
      id: alertCheckId(input.page, row, edge),
      type: 'check.recorded',
      page: input.page,
      at: formatTimestamp(ms),
      data: { monitor_id: row.monitorId, status: statusAt(rows, row.monitorId, ms), response_time_ms: 0 },
    },
  });
  const checks = reported.flatMap(({ index, ...alert }) => {
    const row = byKey.get(rowKey(alert)) ?? alert;
    const firing = check(index, row, 'firing', row.startsMs);
    return row.endsMs === null ? [firing] : [firing, check(index, row, 'resolved', row.endsMs)];
  });
  const changed = reported.map(({ index: _index, ...alert }) => byKey.get(rowKey(alert)) ?? alert);
  return { checks, rows: changed, unmapped };
};
