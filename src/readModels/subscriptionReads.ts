// The API's reads of what readers subscribe to: feeds, Statuspage-compatible documents and the
// embed with its revisions (live streams). Each is ONE round trip that also fetches the page's
// access document. The Statuspage documents: statuspage/reads.ts.
import type { RedisClient } from '../store/redisClient.ts';
import { accessRead } from './access/reads.ts';
import type { PageAccess } from '../../projections/access/codec.ts';
import { embedStreamRead, type EmbedRevisions } from './embed/reads.ts';
import type { EmbedParts } from '../../projections/embed/codec.ts';
import { feedRead, type FeedFormat, type StoredFeed } from './feeds/reads.ts';
import type { PageRef } from '../../projections/store/page.ts';
import { readAll, tupleRead } from '../store/reads.ts';
import type { MonitorSnapshot } from '../../projections/types.ts';
import { readAtInstant } from './series/pageSeriesRead.ts';

export type EmbedStreamRead = Readonly<{
  access: PageAccess | null;
  parts: Partial<EmbedParts>;
  revisions: EmbedRevisions;
  /** The page's latest event (checks included): what moves rtm and the body's `updated`. */
  updatedAt: number | null;
  /** Only when asked for (a stream shows rtm or upd): the monitors' series. */
  monitors: MonitorSnapshot[] | null;
  /** The instant the body is assembled for (assemblyInstant). */
  instant: number;
}>;

export const createSubscriptionReads = (redis: RedisClient) => ({
  feed: async (page: PageRef, format: FeedFormat): Promise<StoredFeed & { access: PageAccess | null }> => {
    const [access, feed] = await readAll(redis, [accessRead(page), feedRead(page, format)]);
    return { access, ...feed };
  },

  /**
   * The embed parts with their revisions and the page's latest event; with `series`, the
   * monitors' series at the page's assembly instant too, as the embed status reads them
   * (readAtInstant: one atomic read).
   */
  embedStream: async (page: PageRef, clockNow: number, series: boolean): Promise<EmbedStreamRead> => {
    const read = await readAtInstant(redis, page, {
      clockNow,
      series,
      rest: tupleRead([accessRead(page), embedStreamRead(page)]),
    });
    const [access, embed] = read.rest;
    return { access, ...embed, updatedAt: read.updatedAt, monitors: read.monitors, instant: read.instant };
  },
});

export type SubscriptionReads = ReturnType<typeof createSubscriptionReads>;
