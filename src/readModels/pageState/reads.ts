// Typed reads of the page-state model.
import type { PageState } from '../../../projections/types.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import {
  getString,
  hashGetAll,
  hashGetMany,
  known,
  mapRead,
  tupleRead,
  type Read,
} from '../../store/reads.ts';
import { decodePage, decodeUpdated, type DecodedPage } from '../../../projections/pageState/codec.ts';
import { pageStateKeys } from '../../../projections/pageState/keys.ts';

/** The whole page document with its `updatedAt` (a render needs it all); null for a page never configured. */
export const pageStateRead = (page: PageRef): Read<PageState | null> => {
  const keys = pageStateKeys(page);
  return mapRead(
    tupleRead([
      getString(keys.state),
      getString(keys.updated),
      hashGetAll(keys.stateIncidents),
      hashGetAll(keys.stateMaintenances),
    ]),
    ([core, updated, incidents, maintenances]) =>
      decodePage({ core, updated, incidents, maintenances })?.state ?? null,
  );
};

/** The time of the page's latest event (epoch ms); null for a page that never had one. */
export const updatedRead = (page: PageRef): Read<number | null> =>
  mapRead(getString(pageStateKeys(page).updated), decodeUpdated);

const fieldsRead = (key: string, ids: readonly string[]): Read<Record<string, string | null>> =>
  ids.length === 0
    ? known({})
    : mapRead(hashGetMany(key, ids), (values) =>
        Object.fromEntries(ids.map((id, i) => [id, values[i] ?? null])),
      );

/** The ids of the incidents and maintenances a batch touches. */
export type TouchedDocs = Readonly<{ incidents: readonly string[]; maintenances: readonly string[] }>;

/**
 * The page document as a batch needs it: the core, and only the incidents and maintenances its
 * events touch (so a batch of checks parses no incident at all).
 */
export const pageForBatchRead = (page: PageRef, touched: TouchedDocs): Read<DecodedPage | null> => {
  const keys = pageStateKeys(page);
  return mapRead(
    tupleRead([
      getString(keys.state),
      getString(keys.updated),
      fieldsRead(keys.stateIncidents, touched.incidents),
      fieldsRead(keys.stateMaintenances, touched.maintenances),
    ]),
    ([core, updated, incidents, maintenances]) => decodePage({ core, updated, incidents, maintenances }),
  );
};
