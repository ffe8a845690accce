// The short word of each overall status, as badges, widgets and snippets show it.
import type { OverallStatus } from '../../src/shared/overallStatus.ts';
import type { MessageKey } from './messages/en.ts';

export const statusWordKeys: Readonly<Record<OverallStatus | 'unknown', MessageKey>> = {
  operational: 'status.operational',
  degraded_performance: 'status.degraded_performance',
  partial_outage: 'status.partial_outage',
  major_outage: 'status.major_outage',
  under_maintenance: 'status.under_maintenance',
  unknown: 'status.unknown',
};
