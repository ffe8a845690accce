// What an in-place render of the maintenance lists needs beside the documents it loaded: what the
// stored lists say of the maintenances that may have moved, and the tallies of the months that a
// changed maintenance left or entered.
import type { MaintenanceStatus } from '../types.ts';

/** A month now: whether any maintenance's window overlaps it, and per day the windows not cancelled. */
export type MonthTally = Readonly<{ listed: boolean; perDay: readonly number[] }>;

export type StoredMaintenanceLists = Readonly<{
  /** The maintenances the stored lists show scheduled or in progress: the clock may have moved them. */
  open: ReadonlyMap<string, MaintenanceStatus>;
  /** Per changed maintenance, the months its stored document is listed under. */
  listedMonths: ReadonlyMap<string, readonly string[]>;
  months: ReadonlyMap<string, MonthTally>;
}>;
