// The API's reads of what readers subscribe to: feeds, Statuspage-compatible documents and the
// embed with its revisions (live streams). Each is ONE round trip that also fetches the page's
// access document (and, for the Statuspage documents, the page's latest event time).
import type { RedisClient } from '../store/redisClient.ts';
import type { StatuspageDocument } from '../../projections/statuspage/documents.ts';
import { accessRead } from './access/reads.ts';
import type { PageAccess } from '../../projections/access/codec.ts';
import type { StoredBytes } from '../../projections/store/bytes.ts';
import { fillStored, updatedIso } from './fillUpdated.ts';
import { embedStreamRead, type EmbedRevisions } from './embed/reads.ts';
import type { EmbedParts } from '../../projections/embed/codec.ts';
import { feedRead, type FeedFormat, type StoredFeed } from './feeds/reads.ts';
import type { PageRef } from '../../projections/store/page.ts';
import { known, readAll } from '../store/reads.ts';
import type { MonitorSnapshot } from '../../projections/types.ts';
import { updatedRead } from './pageState/reads.ts';
import { monitorConfigsRead, seriesIfAsked } from './series/pageSeriesRead.ts';
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

  /** The document with the page's latest event time filled in (the stored one has the slot). */
  statuspage: async (page: PageRef, document: StatuspageDocument) => {
    const [access, stored, updated] = await readAll(redis, [
      accessRead(page),
      statuspageRead(page, document),
      updatedRead(page),
    ]);
    const filled: StoredBytes | null = stored && fillStored(stored, updatedIso(updated));
    return { access, stored: filled };
  },

  /** The embed parts with their revisions; with `seriesAt`, the monitors' series at that instant. */
  embedStream: async (page: PageRef, seriesAt: number | null): Promise<EmbedStreamRead> => {
    const [access, embed, updated, configs] = await readAll(redis, [
      accessRead(page),
      embedStreamRead(page),
      updatedRead(page),
      seriesAt === null ? known(null) : monitorConfigsRead(page),
    ]);
    const monitors = await seriesIfAsked(redis, page, configs, seriesAt);
    return { access, ...embed, updatedAt: updated, monitors };
  },
});

export type SubscriptionReads = ReturnType<typeof createSubscriptionReads>;
