// Where the quarantine of a partition lives in Redis: the pages whose projection or render failed,
// kept out of the way so the rest of the partition goes on (docs/architecture.md, "Quarantined
// pages"). A failed page goes in; a page that renders again comes out. The typed read:
// src/readModels/quarantine/reads.ts.
import type { WriteOp } from '../store/writeOps.ts';
import { type Quarantine, encodeQuarantine } from './codec.ts';

export const quarantineKey = (tag: string): string => `${tag}:quarantine`;

export const quarantinePage = (tag: string, slug: string, q: Quarantine): WriteOp => ({
  op: 'hset',
  key: quarantineKey(tag),
  fields: [[slug, encodeQuarantine(q)]],
});

export const releasePage = (tag: string, slug: string): WriteOp => ({
  op: 'hdel',
  key: quarantineKey(tag),
  field: slug,
});
