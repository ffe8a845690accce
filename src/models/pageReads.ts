// The API's reads of one page (docs/read-models.md). Each is ONE round trip that also fetches the
// page's access document, so a route decides 404/401/403 and answers together.
import type { RedisClient } from './redis/redisClient.ts';
import { accessRead } from './access/reads.ts';
import type { PageAccess } from './access/codec.ts';
import { availabilityExistsRead, availabilityRead } from './availability/reads.ts';
import type { StoredBytes } from './bytes.ts';
import type { ChartModel } from './charts/keys.ts';
import { chartRead } from './charts/reads.ts';
import type { EmbedParts } from './embed/codec.ts';
import { embedRead, overallRead, snippetsRead } from './embed/reads.ts';
import type { ListKeys } from './lists/keys.ts';
import { dailyCountsRead, listPageRead, type ListPage, type ListSlice } from './lists/reads.ts';
import type { PageRef } from './page.ts';
import { known, readAll, runRead } from './redis/reads.ts';

export type StoredRead = Readonly<{ access: PageAccess | null; stored: StoredBytes | null }>;
export type AvailabilityRead = StoredRead & Readonly<{ monitorExists: boolean }>;
export type EmbedRead = Readonly<{ access: PageAccess | null; parts: Partial<EmbedParts> }>;

export const createPageReads = (redis: RedisClient) => ({
  access: (page: PageRef): Promise<PageAccess | null> => runRead(redis, accessRead(page)),

  /** A whole stored response: charts, minute-data or snippets. */
  bytes: async (page: PageRef, model: ChartModel | 'snippets'): Promise<StoredRead> => {
    const body = model === 'snippets' ? snippetsRead(page) : chartRead(page, model);
    const [access, stored] = await readAll(redis, [accessRead(page), body]);
    return { access, stored };
  },

  /** The badge's overall status. */
  overall: async (page: PageRef) => {
    const [access, overall] = await readAll(redis, [accessRead(page), overallRead(page)]);
    return { access, overall };
  },

  /** One month's stored daily counts (null: none stored); `month` null reads access only. */
  dailyCounts: async (page: PageRef, keys: ListKeys, month: string | null): Promise<StoredRead> => {
    const counts = month === null ? known(null) : dailyCountsRead(keys, month);
    const [access, stored] = await readAll(redis, [accessRead(page), counts]);
    return { access, stored };
  },

  /** `monitorId` null reads access only, `period` null skips the body (but not the monitor's existence). */
  availability: async (
    page: PageRef,
    monitorId: number | null,
    period: string | null,
  ): Promise<AvailabilityRead> => {
    const [access, monitorExists, stored] = await readAll(redis, [
      accessRead(page),
      monitorId === null ? known(false) : availabilityExistsRead(page, monitorId),
      monitorId === null || period === null ? known(null) : availabilityRead(page, monitorId, period),
    ]);
    return { access, monitorExists, stored };
  },

  embed: async (page: PageRef): Promise<EmbedRead> => {
    const [access, parts] = await readAll(redis, [accessRead(page), embedRead(page)]);
    return { access, parts };
  },

  /** A slice of a list with its documents in list order; `slice` null reads access only. */
  list: (page: PageRef, keys: ListKeys, slice: ListSlice | null): Promise<ListPage> =>
    runRead(redis, listPageRead(page, keys, slice)),
});

export type PageReads = ReturnType<typeof createPageReads>;
