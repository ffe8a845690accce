// A page's overall status at an instant (decisions.md "Overall status"): its monitors' states and
// impacts, and whether one of its maintenances is in progress then.
import { overallStatus } from '../figures/overallStatus.ts';
import { maintenanceStatus } from '../lists/maintenanceJson.ts';
import type { MonitorStatus, OverallStatus, PageState } from '../types.ts';

export const pageOverall = (
  state: Pick<PageState, 'maintenances'>,
  monitors: readonly Pick<MonitorStatus, 'impact' | 'lastStatus'>[],
  now: number,
): OverallStatus =>
  overallStatus(
    monitors,
    Object.values(state.maintenances).some((m) => maintenanceStatus(m, now) === 'in_progress'),
  );
