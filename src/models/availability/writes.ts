// Write builders of the availability model: a monitor's periods are replaced together.
import type { PageRef } from '../page.ts';
import type { WriteOp } from '../redis/writeOps.ts';
import { encodeAvailability } from './codec.ts';
import { availabilityKey } from './keys.ts';

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
