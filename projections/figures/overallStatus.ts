// The page's overall status (charts, embed, badge) from its monitors' latest states and impacts,
// per decisions.md "Overall status".
import type { CheckStatus, Impact, OverallStatus } from '../types.ts';

export type StatusSource = Readonly<{ impact: Impact; lastStatus: CheckStatus | null }>;

const severity = { operational: 0, degraded_performance: 1, partial_outage: 2, major_outage: 3 } as const;
type Contribution = keyof typeof severity;

const whenDown = {
  major: 'major_outage',
  partial: 'partial_outage',
  degraded: 'degraded_performance',
} as const satisfies Record<Exclude<Impact, 'none'>, Contribution>;

export const overallStatus = (
  monitors: readonly StatusSource[],
  maintenanceInProgress: boolean,
): OverallStatus => {
  let counted = 0;
  let down = 0;
  let worst: Contribution = 'operational';
  for (const { impact, lastStatus } of monitors) {
    if (impact === 'none') continue;
    const state = lastStatus ?? 'up';
    counted++;
    if (state === 'down') down++;
    const contribution: Contribution =
      state === 'down' ? whenDown[impact] : state === 'degraded' ? 'degraded_performance' : 'operational';
    if (severity[contribution] > severity[worst]) worst = contribution;
  }
  if (counted > 0 && down === counted) return 'major_outage';
  return worst === 'operational' && maintenanceInProgress ? 'under_maintenance' : worst;
};
