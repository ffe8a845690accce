// Typed read of the access model.
import type { PageRef } from '../page.ts';
import { getString, mapRead, type Read } from '../redis/reads.ts';
import { decodeAccess, type PageAccess } from './codec.ts';
import { accessKey } from './keys.ts';

export const accessRead = (page: PageRef): Read<PageAccess | null> =>
  mapRead(getString(accessKey(page)), decodeAccess);
