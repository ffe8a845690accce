// Where the feeds model lives in Redis: one hash with the Atom and RSS documents and their
// Last-Modified; bodies stored with their ETag (bytes.ts), `modified` in epoch ms.
import { fromBuffer, type StoredBytes, toBytes } from '../../../projections/store/bytes.ts';
import { pagePrefix, type PageRef } from '../../../projections/store/page.ts';
import { hashGetManyBuffers, mapRead, type Read } from '../../store/reads.ts';
import type { WriteOp } from '../../../projections/store/writeOps.ts';

export const feedsKey = (page: PageRef): string => `${pagePrefix(page)}:feeds`;

export type FeedFormat = 'atom' | 'rss';
export type StoredFeed = Readonly<{ stored: StoredBytes | null; modified: number }>;

export const feedRead = (page: PageRef, format: FeedFormat): Read<StoredFeed> =>
  mapRead(hashGetManyBuffers(feedsKey(page), [format, 'modified']), ([body, modified]) => ({
    stored: fromBuffer(body),
    modified: Number(modified?.toString() ?? 0),
  }));

export type Feeds = Readonly<{ atom: string; rss: string; modified: number }>;

export const putFeeds = (page: PageRef, feeds: Feeds): WriteOp => ({
  op: 'hset',
  key: feedsKey(page),
  fields: [
    ['atom', toBytes(feeds.atom)],
    ['rss', toBytes(feeds.rss)],
    ['modified', feeds.modified],
  ],
});
