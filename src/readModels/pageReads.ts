// The API's reads of one page (docs/read-models.md). Each is ONE round trip that also fetches the
// page's access document, so a route decides 404/401/403 and answers together.
import type { RedisClient } from '../store/redisClient.ts';
import { accessRead } from './access/reads.ts';
import type { PageAccess } from '../../projections/access/codec.ts';
import { availabilityExistsRead, availabilityRead } from './availability/reads.ts';
import type { StoredBytes } from '../../projections/store/bytes.ts';
import type { EmbedParts } from '../../projections/embed/codec.ts';
import { embedRead, overallRead, snippetsRead } from './embed/reads.ts';
import type { ListKeys } from '../../projections/lists/keys.ts';
import { dailyCountsRead, listPageRead, type ListPage, type ListSlice } from './lists/reads.ts';
import type { PageRef } from '../../projections/store/page.ts';
import { known, readAll, runRead } from '../store/reads.ts';
import type { MonitorSnapshot } from '../../projections/types.ts';
import { monitorConfigsRead, readMonitorSeries, seriesIfAsked } from './series/pageSeriesRead.ts';
import { updatedRead } from './pageState/reads.ts';

export type StoredRead = Readonly<{ access: PageAccess | null; stored: StoredBytes | null }>;

/** What a stored read weighs in the response cache: its body's bytes. */
export const storedSize = (read: StoredRead): number => read.stored?.body.length ?? 0;
type AvailabilityRead = StoredRead & Readonly<{ monitorExists: boolean }>;
/** `monitors` null: the page has no document (or is deleted); `overall` as stored. */
export type SeriesRead = Readonly<{
  access: PageAccess | null;
  overall: string | null;
  monitors: MonitorSnapshot[] | null;
}>;
type EmbedRead = Readonly<{
  access: PageAccess | null;
  parts: Partial<EmbedParts>;
  /** The page's latest event, checks included (the body's `updated`). */
  updatedAt: number | null;
  /** Only when asked for (rtm, upd): the monitors' series. */
  monitors: MonitorSnapshot[] | null;
}>;

export const createPageReads = (redis: RedisClient) => ({
  access: (page: PageRef): Promise<PageAccess | null> => runRead(redis, accessRead(page)),

  /** The stored snippets response. */
  snippets: async (page: PageRef): Promise<StoredRead> => {
    const [access, stored] = await readAll(redis, [accessRead(page), snippetsRead(page)]);
    return { access, stored };
  },

  /** The page's overall status and its monitors' series at `now` (charts, minute data). */
  series: async (page: PageRef, now: number): Promise<SeriesRead> => {
    const [access, configs, overall] = await readAll(redis, [
      accessRead(page),
      monitorConfigsRead(page),
      overallRead(page),
    ]);
    const monitors = configs === null ? null : await readMonitorSeries(redis, page, configs, now);
    return { access, overall, monitors };
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

  /** The stored embed parts; with `seriesAt`, the monitors' series at that instant too (rtm, upd). */
  embed: async (page: PageRef, seriesAt: number | null): Promise<EmbedRead> => {
    const [access, parts, updatedAt, configs] = await readAll(redis, [
      accessRead(page),
      embedRead(page),
      updatedRead(page),
      seriesAt === null ? known(null) : monitorConfigsRead(page),
    ]);
    const monitors = await seriesIfAsked(redis, page, configs, seriesAt);
    return { access, parts, updatedAt, monitors };
  },

  /** A slice of a list with its documents in list order; `slice` null reads access only. */
  list: (page: PageRef, keys: ListKeys, slice: ListSlice | null): Promise<ListPage> =>
    runRead(redis, listPageRead(page, keys, slice)),
});

export type PageReads = ReturnType<typeof createPageReads>;
