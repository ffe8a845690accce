// List encodings: lists are sorted sets scored by the negated start time (ms), so ZRANGE gives
// newest first with ties by id ascending; documents are spec-shaped JSON stored as rendered.
import type { MaintenanceStatus } from '../types.ts';

export const listScore = (startMs: number): number => -startMs;

export const MAINTENANCE_STATUSES: readonly MaintenanceStatus[] = [
  'scheduled',
  'in_progress',
  'completed',
  'cancelled',
];

/** One item of a list as rendered: its document and the months it is listed under. */
export type ListItem = Readonly<{ id: string; startMs: number; json: string; months: readonly string[] }>;
