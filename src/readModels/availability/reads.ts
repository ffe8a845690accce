// Typed reads of the availability model (key and codec: projections/availability/): a monitor's
// stored response for one period, and whether the monitor has any.
import type { StoredBytes } from '../../../projections/store/bytes.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { hashGetBuffer, keyExists, mapRead, type Read } from '../../store/reads.ts';
import { decodeAvailability } from '../../../projections/availability/codec.ts';
import { availabilityKey } from '../../../projections/availability/storage.ts';

/** Whether the monitor has availability stored at all (an unknown monitor has none). */
export const availabilityExistsRead = (page: PageRef, monitorId: number): Read<boolean> =>
  keyExists(availabilityKey(page, monitorId));

export const availabilityRead = (
  page: PageRef,
  monitorId: number,
  period: string,
): Read<StoredBytes | null> =>
  mapRead(hashGetBuffer(availabilityKey(page, monitorId), period), decodeAvailability);
