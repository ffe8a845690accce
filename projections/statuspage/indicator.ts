// The page status of Atlassian Statuspage's API v2 (`status.indicator` and `description`) for each
// overall status of this service (docs/api.md, "Statuspage-compatible JSON").
import type { OverallStatus } from '../types.ts';

type Indicator = 'none' | 'minor' | 'major' | 'critical' | 'maintenance';
type StatusJson = { indicator: Indicator; description: string };

const statuses = {
  operational: { indicator: 'none', description: 'All Systems Operational' },
  degraded_performance: { indicator: 'minor', description: 'Partially Degraded Service' },
  partial_outage: { indicator: 'major', description: 'Partial System Outage' },
  major_outage: { indicator: 'critical', description: 'Major System Outage' },
  under_maintenance: { indicator: 'maintenance', description: 'Service Under Maintenance' },
} as const satisfies Record<OverallStatus, StatusJson>;

export const statusOf = (overall: OverallStatus): StatusJson => ({ ...statuses[overall] });
