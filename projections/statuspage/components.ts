// Monitors as Statuspage components. A monitor's status is the contribution decisions.md gives it
// in the overall status (a down monitor of impact none counts as the default impact, partial), and
// under_maintenance while an in-progress maintenance names it and it would otherwise be operational.
import type { Impact, MonitorStatus } from '../types.ts';

export type ComponentStatus =
  'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance';

export type ComponentJson = {
  id: string;
  name: string;
  status: ComponentStatus;
  created_at: string;
  updated_at: string;
  position: number;
  description: null;
  showcase: boolean;
  start_date: null;
  group_id: null;
  page_id: string;
  group: boolean;
  only_show_if_degraded: boolean;
};

const whenDown = {
  major: 'major_outage',
  partial: 'partial_outage',
  degraded: 'degraded_performance',
  none: 'partial_outage',
} as const satisfies Record<Impact, ComponentStatus>;

export const componentStatus = (monitor: MonitorStatus, inMaintenance: boolean): ComponentStatus => {
  if (monitor.lastStatus === 'down') return whenDown[monitor.impact];
  if (monitor.lastStatus === 'degraded') return 'degraded_performance';
  return inMaintenance ? 'under_maintenance' : 'operational';
};

/** Incident impact: the worst indicator its named monitors would cause when down. */
const impactOf = { major: 3, partial: 2, degraded: 1, none: 0 } as const satisfies Record<Impact, number>;
const impacts = ['none', 'minor', 'major', 'critical'] as const;
export type IncidentImpact = (typeof impacts)[number];

export const incidentImpact = (monitors: readonly MonitorStatus[]): IncidentImpact =>
  impacts[Math.max(0, ...monitors.map((m) => impactOf[m.impact]))] ?? 'none';
