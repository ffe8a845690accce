// Write builder of the Statuspage model: every document stored with its ETag (bytes.ts).
import type { StatuspageDocument } from '../../../projections/statuspage/documents.ts';
import { toBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import type { WriteOp } from '../redis/writeOps.ts';
import { statuspageKey } from './keys.ts';

export const putStatuspage = (
  page: PageRef,
  documents: Readonly<Record<StatuspageDocument, string>>,
): WriteOp => ({
  op: 'hset',
  key: statuspageKey(page),
  fields: Object.entries(documents).map(([name, body]) => [name, toBytes(body)] as const),
});
