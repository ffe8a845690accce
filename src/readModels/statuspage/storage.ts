// Where the Statuspage model lives in Redis: one hash, document name (`summary`,
// `incidents/unresolved`, …) → bytes, every document stored with its ETag (bytes.ts).
import type { StatuspageDocument } from '../../../projections/statuspage/documents.ts';
import { fromBuffer, type StoredBytes, toBytes } from '../../../projections/store/bytes.ts';
import { pagePrefix, type PageRef } from '../../../projections/store/page.ts';
import { hashGetBuffer, mapRead, type Read } from '../../store/reads.ts';
import type { WriteOp } from '../../../projections/store/writeOps.ts';

export const statuspageKey = (page: PageRef): string => `${pagePrefix(page)}:sp`;

export const statuspageRead = (page: PageRef, document: StatuspageDocument): Read<StoredBytes | null> =>
  mapRead(hashGetBuffer(statuspageKey(page), document), fromBuffer);

export const putStatuspage = (
  page: PageRef,
  documents: Readonly<Record<StatuspageDocument, string>>,
): WriteOp => ({
  op: 'hset',
  key: statuspageKey(page),
  fields: Object.entries(documents).map(([name, body]) => [name, toBytes(body)] as const),
});
