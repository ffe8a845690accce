// The five overall values (charts, embed status, badge), shared by the projections, the badge and the snippets.
export const overallStatuses = [
  'operational',
  'degraded_performance',
  'partial_outage',
  'major_outage',
  'under_maintenance',
] as const;
export type OverallStatus = (typeof overallStatuses)[number];

export const isOverall = (value: string | null): value is OverallStatus =>
  overallStatuses.some((status) => status === value);

const labels = {
  operational: 'Operational',
  degraded_performance: 'Degraded Performance',
  partial_outage: 'Partial Outage',
  major_outage: 'Major Outage',
  under_maintenance: 'Under Maintenance',
} as const satisfies Record<OverallStatus, string>;

/** Human label of an overall status, e.g. `Partial Outage` (badge, minimal_md, widget). */
export const overallLabel = (status: OverallStatus): string => labels[status];
