// Reads of the outputs readers subscribe to (feeds, Statuspage-compatible documents), each one
// round trip that also fetches the page's access document.
import type { Redis } from 'ioredis';
import type { StatuspageDocument } from '../../projections/render/statuspage/documents.ts';
import { fromBytes, type StoredBody } from './bytes.ts';
import { parseAccess, type PageAccess } from './pageAccess.ts';
import type { PageKeys } from './pageReads.ts';

export type FeedFormat = 'atom' | 'rss';
export type FeedRead = Readonly<{ access: PageAccess | null; stored: StoredBody | null; modified: number }>;

export const createSubscriptionReads = (redis: Redis) => ({
  feed: async (keys: PageKeys, format: FeedFormat): Promise<FeedRead> => {
    const [access, [stored, modified]] = await Promise.all([
      redis.get(keys.access),
      redis.hmget(keys.feeds, format, 'modified'),
    ]);
    return { access: parseAccess(access), stored: fromBytes(stored), modified: Number(modified ?? 0) };
  },

  statuspage: async (keys: PageKeys, document: StatuspageDocument) => {
    const [access, stored] = await Promise.all([
      redis.get(keys.access),
      redis.hget(keys.statuspage, document),
    ]);
    return { access: parseAccess(access), stored: fromBytes(stored) };
  },
});

export type SubscriptionReads = ReturnType<typeof createSubscriptionReads>;
