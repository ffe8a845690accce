// Typed read of the feeds model.
import { fromBytes, type StoredBody } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { hashGetMany, mapRead, type Read } from '../redis/reads.ts';
import { feedsKey } from './keys.ts';

export type FeedFormat = 'atom' | 'rss';
export type StoredFeed = Readonly<{ stored: StoredBody | null; modified: number }>;

export const feedRead = (page: PageRef, format: FeedFormat): Read<StoredFeed> =>
  mapRead(hashGetMany(feedsKey(page), [format, 'modified']), ([body, modified]) => ({
    stored: fromBytes(body),
    modified: Number(modified ?? 0),
  }));
