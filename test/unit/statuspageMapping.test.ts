// The mapping of this service's statuses onto Statuspage's value sets (docs/api.md): every monitor
// state and impact, every overall status.
import { describe, expect, it } from 'vitest';
import { componentStatus, incidentImpact } from '../../projections/statuspage/components.ts';
import { statusOf } from '../../projections/statuspage/indicator.ts';
import type { CheckStatus, Impact, MonitorSnapshot } from '../../projections/types.ts';
import { overallStatuses } from '../../src/shared/overallStatus.ts';

const monitor = (impact: Impact, lastStatus: CheckStatus | null): MonitorSnapshot => ({
  id: 1,
  name: 'API',
  type: 'http',
  impact,
  position: null,
  firstAt: null,
  lastStatus,
  down: [],
  openDownStart: null,
  hours: new Map(),
  minutes: new Map(),
});

describe('Statuspage mapping', () => {
  it('maps a monitor to a component status by its latest check and impact', () => {
    const impacts: Impact[] = ['major', 'partial', 'degraded', 'none'];
    const table = impacts.map((impact) => [
      impact,
      ...(['up', 'degraded', 'down', null] as const).flatMap((state) => [
        componentStatus(monitor(impact, state), false),
        componentStatus(monitor(impact, state), true),
      ]),
    ]);
    // columns: up, up in maintenance, degraded, degraded in maintenance, down, down in maintenance, no data, no data in maintenance
    expect(table).toEqual([
      [
        'major',
        'operational',
        'under_maintenance',
        'degraded_performance',
        'degraded_performance',
        'major_outage',
        'major_outage',
        'operational',
        'under_maintenance',
      ],
      [
        'partial',
        'operational',
        'under_maintenance',
        'degraded_performance',
        'degraded_performance',
        'partial_outage',
        'partial_outage',
        'operational',
        'under_maintenance',
      ],
      [
        'degraded',
        'operational',
        'under_maintenance',
        'degraded_performance',
        'degraded_performance',
        'degraded_performance',
        'degraded_performance',
        'operational',
        'under_maintenance',
      ],
      [
        'none',
        'operational',
        'under_maintenance',
        'degraded_performance',
        'degraded_performance',
        'partial_outage',
        'partial_outage',
        'operational',
        'under_maintenance',
      ],
    ]);
  });

  it('gives an incident the worst impact of the monitors it names', () => {
    expect(incidentImpact([])).toBe('none');
    expect(incidentImpact([monitor('none', 'up')])).toBe('none');
    expect(incidentImpact([monitor('degraded', 'up')])).toBe('minor');
    expect(incidentImpact([monitor('degraded', 'up'), monitor('partial', 'up')])).toBe('major');
    expect(incidentImpact([monitor('partial', 'up'), monitor('major', 'up'), monitor('none', 'up')])).toBe(
      'critical',
    );
  });

  it('maps every overall status to an indicator and its description', () => {
    expect(overallStatuses.map(statusOf)).toEqual([
      { indicator: 'none', description: 'All Systems Operational' },
      { indicator: 'minor', description: 'Partially Degraded Service' },
      { indicator: 'major', description: 'Partial System Outage' },
      { indicator: 'critical', description: 'Major System Outage' },
      { indicator: 'maintenance', description: 'Service Under Maintenance' },
    ]);
  });
});
