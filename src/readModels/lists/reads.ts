// Typed reads of the list models. A list page is one script call that also reads the page's
// access document, so a route decides 404/401/403 and answers from one round trip.
import { decodeAccess, type PageAccess } from '../../../projections/access/codec.ts';
import { accessKey } from '../../../projections/access/storage.ts';
import { fromBuffer, type StoredBytes } from '../../../projections/store/bytes.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { hashGetBuffer, mapRead, setMembers, type Read } from '../../store/reads.ts';
import { maintenanceKeys, type ListKeys } from '../../../projections/lists/keys.ts';

/** A slice of a sorted list, as ZRANGE indices (stop −1: to the end). */
export type ListSlice = Readonly<{ zset: string; start: number; stop: number }>;

export type ListPage = Readonly<{ access: PageAccess | null; total: number; docs: string[] }>;

// Redis takes 64-bit indices; beyond 2^53 every index is past the end anyway.
const index = (n: number): string => String(Math.min(n, Number.MAX_SAFE_INTEGER));

/** The access document and a slice of a list with its documents in list order; `slice` null reads access only. */
export const listPageRead = (page: PageRef, keys: ListKeys, slice: ListSlice | null): Read<ListPage> => {
  const access = accessKey(page);
  const range =
    slice === null ? [] : [index(slice.start), slice.stop < 0 ? String(slice.stop) : index(slice.stop)];
  return {
    size: 1,
    queue: (pipeline) =>
      pipeline.pageList(access, slice?.zset ?? access, slice === null ? access : keys.docs, ...range),
    decode: (replies, at) => {
      const [first, total, ...docs] = (replies[at] ?? []) as (string | number | null)[];
      return {
        access: decodeAccess(typeof first === 'string' ? first : null),
        total: typeof total === 'number' ? total : 0,
        // A doc missing beside its id would be a projector bug; skip it rather than send null.
        docs: docs.filter((doc): doc is string => typeof doc === 'string'),
      };
    },
  };
};

/** One month's stored daily counts; null when none is stored (a month without items). */
export const dailyCountsRead = (keys: ListKeys, month: string): Read<StoredBytes | null> =>
  mapRead(hashGetBuffer(keys.counts, month), fromBuffer);

/** The months the last maintenance render wrote. */
export const maintenanceMonthsRead = (page: PageRef): Read<string[]> =>
  setMembers(maintenanceKeys(page).months);
