// Typed read of the Statuspage model.
import type { StatuspageDocument } from '../../../projections/statuspage/documents.ts';
import { fromBuffer, type StoredBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { hashGetBuffer, mapRead, type Read } from '../redis/reads.ts';
import { statuspageKey } from './keys.ts';

export const statuspageRead = (page: PageRef, document: StatuspageDocument): Read<StoredBytes | null> =>
  mapRead(hashGetBuffer(statuspageKey(page), document), fromBuffer);
