// A page's SLA settings with the contract's defaults, and the maintenance time a report leaves
// out for one monitor (sla-reports.md, "Page and monitor settings", "Excluded time").
import type { MaintenanceDoc, MonitorConfig, PageSettings } from '../types.ts';
import type { Span } from './intervals.ts';

type SlaSettings = Readonly<{ zone: string; target: number; excludeMaintenance: boolean }>;

export const slaSettings = (settings: PageSettings): SlaSettings => ({
  zone: settings.timeZone ?? 'UTC',
  target: settings.slaTarget ?? 99.9,
  excludeMaintenance: settings.slaExcludeMaintenance ?? true,
});

export const monitorTarget = (page: SlaSettings, monitor: MonitorConfig): number =>
  monitor.slaTarget ?? page.target;

const never = Number.POSITIVE_INFINITY;

/** [a, b): from the scheduled start or the first start, to the scheduled end or the first completion or cancellation. */
export const inProgressSpan = (m: MaintenanceDoc): Span => ({
  start: Math.min(m.scheduledStart, m.startedAt ?? never),
  end: Math.min(m.scheduledEnd, m.completedAt ?? never, m.cancelledAt ?? never),
});

const covers = (m: MaintenanceDoc, monitor: MonitorConfig): boolean =>
  m.components.length === 0 || m.components.includes(monitor.name);

/** The in-progress spans of the maintenances covering `monitor` (none when maintenance is not left out). */
export const excludedSpans = (
  page: SlaSettings,
  maintenances: readonly MaintenanceDoc[],
  monitor: MonitorConfig,
): Span[] =>
  page.excludeMaintenance
    ? maintenances
        .filter((m) => covers(m, monitor))
        .map(inProgressSpan)
        .filter((s) => s.end > s.start)
    : [];
