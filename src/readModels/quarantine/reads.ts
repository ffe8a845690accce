// The typed read of a partition's quarantine (key and codec: projections/quarantine/): the renderer,
// the loss check and the projection status read which pages are set aside.
import { hashGetAll, mapRead, type Read } from '../../store/reads.ts';
import { decodeQuarantine, type Quarantine } from '../../../projections/quarantine/codec.ts';
import { quarantineKey } from '../../../projections/quarantine/storage.ts';

/** The quarantined pages of a partition, by slug. */
export const quarantineRead = (tag: string): Read<Map<string, Quarantine>> =>
  mapRead(
    hashGetAll(quarantineKey(tag)),
    (hash) => new Map(Object.entries(hash).map(([slug, text]) => [slug, decodeQuarantine(text)])),
  );
