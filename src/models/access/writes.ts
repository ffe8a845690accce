// Write builder of the access model.
import type { PageState } from '../../../projections/types.ts';
import type { PageRef } from '../page.ts';
import { setOp, type WriteOp } from '../redis/writeOps.ts';
import { encodeAccess } from './codec.ts';
import { accessKey } from './keys.ts';

export const putAccess = (page: PageRef, state: PageState | null): WriteOp =>
  setOp(accessKey(page), encodeAccess(state));
