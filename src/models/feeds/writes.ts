// Write builder of the feeds model: bodies stored with their ETag (bytes.ts), `modified` in epoch ms.
import { toBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import type { WriteOp } from '../redis/writeOps.ts';
import { feedsKey } from './keys.ts';

type Feeds = Readonly<{ atom: string; rss: string; modified: number }>;

export const putFeeds = (page: PageRef, feeds: Feeds): WriteOp => ({
  op: 'hset',
  key: feedsKey(page),
  fields: [
    ['atom', toBytes(feeds.atom)],
    ['rss', toBytes(feeds.rss)],
    ['modified', feeds.modified],
  ],
});
