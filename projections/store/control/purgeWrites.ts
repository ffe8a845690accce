// The purge outbox's writes (keys.ts, `purges`): a commit queues the edge purges it makes necessary
// in the same script call, so a crash after the commit cannot lose them.
import type { WriteOp } from '../writeOps.ts';
import { partitionKeys } from './keys.ts';

export type PurgeKeys = Readonly<{ hard: readonly string[]; soft: readonly string[] }>;

/** The outbox member of a surrogate key. */
const purgeMember = (key: string, hard: boolean): string => `${hard ? 'h' : 's'}:${key}`;

/**
 * Queues `keys` at `since` (ms). A key already queued keeps its older time (ZADD LT): coalesced,
 * and the latency counts from the first change it carries.
 */
export const queuePurges = (tag: string, keys: PurgeKeys, since: number): WriteOp[] => {
  const key = partitionKeys(tag).purges;
  const zadd = (surrogate: string, hard: boolean): WriteOp => ({
    op: 'zadd',
    key,
    score: since,
    member: purgeMember(surrogate, hard),
    onlyLower: true,
  });
  return [...keys.hard.map((k) => zadd(k, true)), ...keys.soft.map((k) => zadd(k, false))];
};
