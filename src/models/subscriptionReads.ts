// The API's reads of what readers subscribe to: feeds, Statuspage-compatible documents and the
// embed with its revisions (live streams). Each is ONE round trip that also fetches the page's
// access document.
import type { RedisClient } from './redis/redisClient.ts';
import type { StatuspageDocument } from '../../projections/render/statuspage/documents.ts';
import { accessRead } from './access/reads.ts';
import type { PageAccess } from './access/codec.ts';
import type { StoredBytes } from './bytes.ts';
import { embedStreamRead, type EmbedRevisions } from './embed/reads.ts';
import type { EmbedParts } from './embed/codec.ts';
import { feedRead, type FeedFormat, type StoredFeed } from './feeds/reads.ts';
import type { PageRef } from './page.ts';
import { getString, known, readAll } from './redis/reads.ts';
import type { MonitorSnapshot } from '../../projections/types.ts';
import { decodeUpdated } from './pageState/codec.ts';
import { pageStateKeys } from './pageState/keys.ts';
import { monitorConfigsRead, readMonitorSeries } from './series/pageSeriesRead.ts';
import { statuspageRead } from './statuspage/reads.ts';

export type EmbedStreamRead = Readonly<{
  access: PageAccess | null;
  parts: Partial<EmbedParts>;
  revisions: EmbedRevisions;
  /** The page's latest event (checks included): what moves rtm and the body's `updated`. */
  updatedAt: number | null;
  /** Only when asked for (a stream shows rtm or upd): the monitors' series. */
  monitors: MonitorSnapshot[] | null;
}>;

export const createSubscriptionReads = (redis: RedisClient) => ({
  feed: async (page: PageRef, format: FeedFormat): Promise<StoredFeed & { access: PageAccess | null }> => {
    const [access, feed] = await readAll(redis, [accessRead(page), feedRead(page, format)]);
    return { access, ...feed };
  },

  statuspage: async (page: PageRef, document: StatuspageDocument) => {
    const [access, stored] = await readAll(redis, [accessRead(page), statuspageRead(page, document)]);
    return { access, stored: stored satisfies StoredBytes | null };
  },

  /** The embed parts with their revisions; with `seriesAt`, the monitors' series at that instant. */
  embedStream: async (page: PageRef, seriesAt: number | null): Promise<EmbedStreamRead> => {
    const [access, embed, updated, configs] = await readAll(redis, [
      accessRead(page),
      embedStreamRead(page),
      getString(pageStateKeys(page).updated),
      seriesAt === null ? known(null) : monitorConfigsRead(page),
    ]);
    const monitors =
      seriesAt === null || configs === null ? null : await readMonitorSeries(redis, page, configs, seriesAt);
    return { access, ...embed, updatedAt: decodeUpdated(updated), monitors };
  },
});

export type SubscriptionReads = ReturnType<typeof createSubscriptionReads>;
