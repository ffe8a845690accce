// Key of the availability model: per monitor, period → the stored availability response.
import { pagePrefix, type PageRef } from '../page.ts';

export const availabilityKey = (page: PageRef, monitorId: number): string =>
  `${pagePrefix(page)}:avail:${monitorId}`;
