// Where the access model lives in Redis: its key (the little every endpoint needs before it may
// answer) and its write builder. The typed read is in src/readModels/access/reads.ts.
import type { PageState } from '../types.ts';
import { pagePrefix, type PageRef } from '../store/page.ts';
import { setOp, type WriteOp } from '../store/writeOps.ts';
import { encodeAccess } from './codec.ts';

export const accessKey = (page: PageRef): string => `${pagePrefix(page)}:access`;

export const putAccess = (page: PageRef, state: PageState | null): WriteOp =>
  setOp(accessKey(page), encodeAccess(state));
