// Typed read of the Statuspage model.
import type { StatuspageDocument } from '../../../projections/render/statuspage/documents.ts';
import { fromBytes, type StoredBody } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { hashGet, mapRead, type Read } from '../redis/reads.ts';
import { statuspageKey } from './keys.ts';

export const statuspageRead = (page: PageRef, document: StatuspageDocument): Read<StoredBody | null> =>
  mapRead(hashGet(statuspageKey(page), document), fromBytes);
