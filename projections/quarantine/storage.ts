// Where a partition's quarantined pages live in Redis (docs/architecture.md, "Quarantined pages").
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
