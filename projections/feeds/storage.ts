// Where the feeds model lives in Redis: one hash with the Atom and RSS documents and their
// Last-Modified; bodies stored with their ETag (store/bytes.ts), `modified` in epoch ms. The typed
// read: src/readModels/feeds/reads.ts.
import { toBytes } from '../store/bytes.ts';
import { pagePrefix, type PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';

export const feedsKey = (page: PageRef): string => `${pagePrefix(page)}:feeds`;

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
