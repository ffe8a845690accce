// Where the quarantine of a partition lives in Redis: the pages whose projection or render failed,
// kept out of the way so the rest of the partition goes on (docs/architecture.md, "Quarantined
// pages"). A failed page goes in; a page that renders again comes out.
import { hashGetAll, mapRead, type Read } from '../../store/reads.ts';
import type { WriteOp } from '../../../projections/store/writeOps.ts';
import { decodeQuarantine, type Quarantine, encodeQuarantine } from './codec.ts';

export const quarantineKey = (tag: string): string => `${tag}:quarantine`;

/** The quarantined pages of a partition, by slug. */
export const quarantineRead = (tag: string): Read<Map<string, Quarantine>> =>
  mapRead(
    hashGetAll(quarantineKey(tag)),
    (hash) => new Map(Object.entries(hash).map(([slug, text]) => [slug, decodeQuarantine(text)])),
  );

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
