// Where the availability model lives in Redis: per monitor, period → the stored availability
// response; typed reads, and write builders that replace a monitor's periods together.
import type { StoredBytes } from '../../../projections/store/bytes.ts';
import { pagePrefix, type PageRef } from '../../../projections/store/page.ts';
import { hashGetBuffer, keyExists, mapRead, type Read } from '../../store/reads.ts';
import type { WriteOp } from '../../../projections/store/writeOps.ts';
import { decodeAvailability, encodeAvailability } from './codec.ts';

export const availabilityKey = (page: PageRef, monitorId: number): string =>
  `${pagePrefix(page)}:avail:${monitorId}`;

/** Whether the monitor has availability stored at all (an unknown monitor has none). */
export const availabilityExistsRead = (page: PageRef, monitorId: number): Read<boolean> =>
  keyExists(availabilityKey(page, monitorId));

export const availabilityRead = (
  page: PageRef,
  monitorId: number,
  period: string,
): Read<StoredBytes | null> =>
  mapRead(hashGetBuffer(availabilityKey(page, monitorId), period), decodeAvailability);

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
