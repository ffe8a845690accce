// Which month summaries the projector (re)computes for a page (docs/read-models.md, "SLA
// reports"): only complete months are stored; the current one is assembled at read time.
import { monthAt, periodBounds, reachMonths, type Period } from './periods.ts';

type StoreRequest = Readonly<{
  zone: string;
  asOf: number;
  /** The earliest instant whose figures changed (0: all), or null for none. */
  changedFrom: number | null;
  /** The current month of the page's last render (its earlier months are stored), or null. */
  storedUntil: string | null;
}>;

/** The complete months of the reach whose summaries must be computed, oldest first. */
export const monthsToStore = ({ zone, asOf, changedFrom, storedUntil }: StoreRequest): Period[] => {
  const current = monthAt(zone, asOf).label;
  return reachMonths(zone, asOf).filter(
    (m) =>
      m.label !== current &&
      ((changedFrom !== null && periodBounds(zone, m)[1] > changedFrom) ||
        storedUntil === null ||
        m.label >= storedUntil),
  );
};

/** When the page's current month completes: its summary is due then. */
export const monthDueAt = (zone: string, asOf: number): number => periodBounds(zone, monthAt(zone, asOf))[1];
