// The API's reads of what readers subscribe to: feeds, Statuspage-compatible documents and the
// embed with its revisions (live streams). Each is ONE round trip that also fetches the page's
// access document (and, for the Statuspage documents, the page's latest event time).
import type { RedisClient } from './redis/redisClient.ts';
import type { StatuspageDocument } from '../../projections/render/statuspage/documents.ts';
import { accessRead } from './access/reads.ts';
import type { PageAccess } from './access/codec.ts';
import type { StoredBytes } from './bytes.ts';
import { fillStored, updatedIso } from './fillUpdated.ts';
import { embedStreamRead, type EmbedRevisions } from './embed/reads.ts';
import type { EmbedParts } from './embed/codec.ts';
import { feedRead, type FeedFormat, type StoredFeed } from './feeds/reads.ts';
import type { PageRef } from './page.ts';
import { updatedRead } from './pageState/reads.ts';
import { readAll } from './redis/reads.ts';
import { statuspageRead } from './statuspage/reads.ts';

export type EmbedStreamRead = Readonly<{
  access: PageAccess | null;
  parts: Partial<EmbedParts>;
  revisions: EmbedRevisions;
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

  embedStream: async (page: PageRef): Promise<EmbedStreamRead> => {
    const [access, embed] = await readAll(redis, [accessRead(page), embedStreamRead(page)]);
    return { access, ...embed };
  },
});

export type SubscriptionReads = ReturnType<typeof createSubscriptionReads>;
