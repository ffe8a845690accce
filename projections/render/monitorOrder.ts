// Display order of monitors in charts and minute-data: position ascending, monitors without a
// position after those with one, then id.
import type { MonitorConfig } from '../types.ts';

const byDisplayOrder = (a: MonitorConfig, b: MonitorConfig): number => {
  if (a.position !== b.position) {
    if (a.position === null) return 1;
    if (b.position === null) return -1;
    return a.position - b.position;
  }
  return a.id - b.id;
};

export const inDisplayOrder = <M extends MonitorConfig>(monitors: readonly M[]): M[] =>
  [...monitors].sort(byDisplayOrder);
