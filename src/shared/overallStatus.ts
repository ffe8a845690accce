// The five overall values (charts, embed status, badge), shared by the projections, the badge and the
// snippets. Their words, in every language, are in projections/locale (statusWords.ts).
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
