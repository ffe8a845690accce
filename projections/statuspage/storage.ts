// Where the Statuspage model lives in Redis: one hash, document name (`summary`,
// `incidents/unresolved`, …) → bytes, every document stored with its ETag (store/bytes.ts). The
// typed read: src/readModels/statuspage/reads.ts.
import type { StatuspageDocument } from './documents.ts';
import { toBytes } from '../store/bytes.ts';
import { pagePrefix, type PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';

export const statuspageKey = (page: PageRef): string => `${pagePrefix(page)}:sp`;

export const putStatuspage = (
  page: PageRef,
  documents: Readonly<Record<StatuspageDocument, string>>,
): WriteOp => ({
  op: 'hset',
  key: statuspageKey(page),
  fields: Object.entries(documents).map(([name, body]) => [name, toBytes(body)] as const),
});
