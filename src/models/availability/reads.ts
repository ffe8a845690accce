// Typed reads of the availability model.
import type { StoredBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { hashGetBuffer, keyExists, mapRead, type Read } from '../redis/reads.ts';
import { decodeAvailability } from './codec.ts';
import { availabilityKey } from './keys.ts';

/** Whether the monitor has availability stored at all (an unknown monitor has none). */
export const availabilityExistsRead = (page: PageRef, monitorId: number): Read<boolean> =>
  keyExists(availabilityKey(page, monitorId));

export const availabilityRead = (
  page: PageRef,
  monitorId: number,
  period: string,
): Read<StoredBytes | null> =>
  mapRead(hashGetBuffer(availabilityKey(page, monitorId), period), decodeAvailability);
