// Write builders of the control model: the sets that tell the renderer what to render, the due
// times and the tick. The checkpoint itself moves only inside commitWrites.
import { setOp, type WriteOp } from '../writeOps.ts';
import { partitionKeys } from './keys.ts';

/** The sets of a partition that drive rendering; members are slugs, or "<slug>|<monitorId>". */
export type RenderSet =
  | 'pages'
  | 'dirty'
  | 'dirtyIncidents'
  | 'dirtyIncidentDocs'
  | 'dirtyMaintenances'
  | 'dirtyMaintenanceDocs'
  | 'dirtyAvailability';

export const markForRender = (tag: string, set: RenderSet, member: string): WriteOp => ({
  op: 'sadd',
  key: partitionKeys(tag)[set],
  member,
});

export const clearRenderMark = (tag: string, set: RenderSet, member: string): WriteOp => ({
  op: 'srem',
  key: partitionKeys(tag)[set],
  member,
});

/**
 * When the page next changes by the clock alone. `exact` replaces the stored time (null: never);
 * `earlier` may only bring it forward, for a render that saw only part of the page.
 */
export const scheduleDue = (
  tag: string,
  slug: string,
  due: number | null,
  mode: 'exact' | 'earlier',
): WriteOp | null => {
  const key = partitionKeys(tag).due;
  if (due === null) return mode === 'exact' ? { op: 'zrem', key, member: slug } : null;
  return { op: 'zadd', key, score: due, member: slug, onlyLower: mode === 'earlier' };
};

export const setTick = (tag: string, minute: number): WriteOp => setOp(partitionKeys(tag).tick, minute);
