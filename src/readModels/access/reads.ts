// The typed read of the access document (key and codec: projections/access/): every endpoint
// reads it first, with the body it answers, in the same round trip.
import type { PageRef } from '../../../projections/store/page.ts';
import { getString, mapRead, type Read } from '../../store/reads.ts';
import { decodeAccess, type PageAccess } from '../../../projections/access/codec.ts';
import { accessKey } from '../../../projections/access/storage.ts';

export const accessRead = (page: PageRef): Read<PageAccess | null> =>
  mapRead(getString(accessKey(page)), decodeAccess);
