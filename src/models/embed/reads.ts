// Typed reads of the embed model.
import { fromBytes, type StoredBody } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { getString, hashGetAll, mapRead, type Read } from '../redis/reads.ts';
import { decodeEmbed, type EmbedParts } from './codec.ts';
import { embedKeys } from './keys.ts';

export const embedRead = (page: PageRef): Read<Partial<EmbedParts>> =>
  mapRead(hashGetAll(embedKeys(page).embed), decodeEmbed);

export const snippetsRead = (page: PageRef): Read<StoredBody | null> =>
  mapRead(getString(embedKeys(page).snippets), fromBytes);

/** The badge's overall status as stored (the route checks it is one it can draw). */
export const overallRead = (page: PageRef): Read<string | null> => getString(embedKeys(page).overall);
