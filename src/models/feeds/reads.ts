// Typed read of the feeds model.
import { fromBuffer, type StoredBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { hashGetManyBuffers, mapRead, type Read } from '../redis/reads.ts';
import { feedsKey } from './keys.ts';

export type FeedFormat = 'atom' | 'rss';
export type StoredFeed = Readonly<{ stored: StoredBytes | null; modified: number }>;

export const feedRead = (page: PageRef, format: FeedFormat): Read<StoredFeed> =>
  mapRead(hashGetManyBuffers(feedsKey(page), [format, 'modified']), ([body, modified]) => ({
    stored: fromBuffer(body),
    modified: Number(modified?.toString() ?? 0),
  }));
