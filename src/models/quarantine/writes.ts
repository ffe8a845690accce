// Write builders of the quarantine: a failed page goes in, a page that renders again comes out.
import type { WriteOp } from '../redis/writeOps.ts';
import { encodeQuarantine, type Quarantine } from './codec.ts';
import { quarantineKey } from './keys.ts';

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
