// Write builders of the page-state model.
import type { PageState } from '../../../projections/types.ts';
import type { PageRef } from '../page.ts';
import { setOp, type WriteOp } from '../redis/writeOps.ts';
import { encodePageState, encodeUpdated } from './codec.ts';
import { pageStateKeys } from './keys.ts';

export const putPageState = (page: PageRef, state: PageState): WriteOp =>
  setOp(pageStateKeys(page).state, encodePageState(state));

export const putUpdatedAt = (page: PageRef, at: number): WriteOp =>
  setOp(pageStateKeys(page).updated, encodeUpdated(at));
