// Typed reads of the quarantine.
import { hashGetAll, mapRead, type Read } from '../redis/reads.ts';
import { decodeQuarantine, type Quarantine } from './codec.ts';
import { quarantineKey } from './keys.ts';

/** The quarantined pages of a partition, by slug. */
export const quarantineRead = (tag: string): Read<Map<string, Quarantine>> =>
  mapRead(
    hashGetAll(quarantineKey(tag)),
    (hash) => new Map(Object.entries(hash).map(([slug, text]) => [slug, decodeQuarantine(text)])),
  );
