// Where the access model lives in Redis: its key (the little every endpoint needs before it may
// answer), its typed read and its write builder.
import type { PageState } from '../../../projections/types.ts';
import { pagePrefix, type PageRef } from '../../../projections/store/page.ts';
import { getString, mapRead, type Read } from '../../store/reads.ts';
import { setOp, type WriteOp } from '../../../projections/store/writeOps.ts';
import { decodeAccess, type PageAccess, encodeAccess } from './codec.ts';

export const accessKey = (page: PageRef): string => `${pagePrefix(page)}:access`;

export const accessRead = (page: PageRef): Read<PageAccess | null> =>
  mapRead(getString(accessKey(page)), decodeAccess);

export const putAccess = (page: PageRef, state: PageState | null): WriteOp =>
  setOp(accessKey(page), encodeAccess(state));
