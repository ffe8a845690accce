// The typed read of a stored feed (key: projections/feeds/storage.ts): one format's body with its
// ETag, and the Last-Modified the feed routes answer with.
import { fromBuffer, type StoredBytes } from '../../../projections/store/bytes.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { hashGetManyBuffers, mapRead, type Read } from '../../store/reads.ts';
import { feedsKey } from '../../../projections/feeds/storage.ts';

export type FeedFormat = 'atom' | 'rss';
export type StoredFeed = Readonly<{ stored: StoredBytes | null; modified: number }>;

export const feedRead = (page: PageRef, format: FeedFormat): Read<StoredFeed> =>
  mapRead(hashGetManyBuffers(feedsKey(page), [format, 'modified']), ([body, modified]) => ({
    stored: fromBuffer(body),
    modified: Number(modified?.toString() ?? 0),
  }));
