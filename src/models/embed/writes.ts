// Write builders of the embed model.
import type { OverallStatus } from '../../shared/overallStatus.ts';
import { toBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { setOp, type WriteOp } from '../redis/writeOps.ts';
import { encodeEmbed, type EmbedParts } from './codec.ts';
import { embedKeys } from './keys.ts';

export const putEmbed = (page: PageRef, parts: EmbedParts): WriteOp => ({
  op: 'hset',
  key: embedKeys(page).embed,
  fields: encodeEmbed(parts),
});

export const putSnippets = (page: PageRef, body: string): WriteOp =>
  setOp(embedKeys(page).snippets, toBytes(body));

export const putOverall = (page: PageRef, overall: OverallStatus): WriteOp =>
  setOp(embedKeys(page).overall, overall);
