// Where the availability model lives in Redis: per monitor, period → the stored availability
// response; write builders that replace a monitor's periods together. Typed reads:
// src/readModels/availability/reads.ts.
import { pagePrefix, type PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { encodeAvailability } from './codec.ts';

export const availabilityKey = (page: PageRef, monitorId: number): string =>
  `${pagePrefix(page)}:avail:${monitorId}`;

/** `bodies`: period → response body, in the order they are stored. */
export const replaceAvailability = (
  page: PageRef,
  monitorId: number,
  bodies: readonly (readonly [period: string, body: string])[],
): WriteOp[] => {
  const key = availabilityKey(page, monitorId);
  return [
    { op: 'del', keys: [key] },
    { op: 'hset', key, fields: bodies.map(([period, body]) => [period, encodeAvailability(body)] as const) },
  ];
};

/** Gone with its monitor. */
export const deleteAvailability = (page: PageRef, monitorId: number): WriteOp => ({
  op: 'del',
  keys: [availabilityKey(page, monitorId)],
});
