// For answers that join stored render outputs with what the batches committed: whether the page's
// render is behind its batches, and the page document as the batches left it, to compute those
// outputs instead.
import { decodeAccess, encodeAccess, type PageAccess } from '../../../projections/access/codec.ts';
import { decodePage } from '../../../projections/pageState/codec.ts';
import { pageStateKeys } from '../../../projections/pageState/keys.ts';
import { partitionKeys } from '../../../projections/store/control/keys.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import type { PageState } from '../../../projections/types.ts';
import { hashGetAll, known, setHas, tupleRead, type Read } from '../../store/reads.ts';

/**
 * Whether the page waits for a render its batches asked for (in `dirty`, cleared by the render's
 * commit): its stored outputs may then be older than what the batches committed.
 */
export const renderPendingRead = (page: PageRef): Read<boolean> =>
  setHas(partitionKeys(page.tag).dirty, page.slug);

type Documents = readonly [incidents: Record<string, string>, maintenances: Record<string, string>];

/** The page's incident (when asked for) and maintenance documents. */
export const documentsRead = (page: PageRef, incidents: boolean): Read<Documents> => {
  const keys = pageStateKeys(page);
  return tupleRead([
    incidents ? hashGetAll(keys.stateIncidents) : known({}),
    hashGetAll(keys.stateMaintenances),
  ]);
};

/** The live page document from its core and documents; null for a page without one or a deleted one. */
export const documentOf = (core: string | null, [incidents, maintenances]: Documents): PageState | null => {
  const state = decodePage({ core, updated: null, incidents, maintenances })?.state ?? null;
  return state === null || state.deleted ? null : state;
};

/** The access document a render of `state` stores. */
export const accessOf = (state: PageState): PageAccess | null => decodeAccess(encodeAccess(state));
