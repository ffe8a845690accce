// Typed reads of the page-state model.
import type { PageState } from '../../../projections/types.ts';
import type { PageRef } from '../page.ts';
import { getString, mapRead, tupleRead, type Read } from '../redis/reads.ts';
import { decodePageState } from './codec.ts';
import { pageStateKeys } from './keys.ts';

/** The page document with its `updatedAt`; null for a page never configured. */
export const pageStateRead = (page: PageRef): Read<PageState | null> => {
  const keys = pageStateKeys(page);
  return mapRead(tupleRead([getString(keys.state), getString(keys.updated)]), ([state, updated]) =>
    decodePageState(state, updated),
  );
};
