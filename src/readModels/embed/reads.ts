// Typed reads of the embed model.
import { fromBuffer, type StoredBytes } from '../../../projections/store/bytes.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { getBuffer, getString, hashGetAll, mapRead, type Read } from '../../store/reads.ts';
import {
  decodeEmbed,
  decodeRevisions,
  embedKeys,
  type EmbedParts,
  type EmbedRevisions,
} from '../../../projections/embed/codec.ts';

export type { EmbedRevisions };

export const embedRead = (page: PageRef): Read<Partial<EmbedParts>> =>
  mapRead(hashGetAll(embedKeys(page).embed), decodeEmbed);

/** The parts with their revisions (live streams): the same hash, one reply. */
export const embedStreamRead = (
  page: PageRef,
): Read<{ parts: Partial<EmbedParts>; revisions: EmbedRevisions }> =>
  mapRead(hashGetAll(embedKeys(page).embed), (hash) => ({
    parts: decodeEmbed(hash),
    revisions: decodeRevisions(hash),
  }));

export const snippetsRead = (page: PageRef): Read<StoredBytes | null> =>
  mapRead(getBuffer(embedKeys(page).snippets), fromBuffer);

/** The badge's overall status as stored (the route checks it is one it can draw). */
export const overallRead = (page: PageRef): Read<string | null> => getString(embedKeys(page).overall);

/** The instants the stored overall holds for (overallSpan.ts); null before a render wrote it. */
export const storedOverallSpanRead = (page: PageRef): Read<string | null> =>
  getString(embedKeys(page).overallSpan);
