// The typed read of one stored Statuspage document (key: projections/statuspage/storage.ts), ready
// bytes with their ETag.
import type { StatuspageDocument } from '../../../projections/statuspage/documents.ts';
import { fromBuffer, type StoredBytes } from '../../../projections/store/bytes.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { hashGetBuffer, mapRead, type Read } from '../../store/reads.ts';
import { statuspageKey } from '../../../projections/statuspage/storage.ts';

export const statuspageRead = (page: PageRef, document: StatuspageDocument): Read<StoredBytes | null> =>
  mapRead(hashGetBuffer(statuspageKey(page), document), fromBuffer);
