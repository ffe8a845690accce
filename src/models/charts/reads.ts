// Typed read of the charts model.
import { fromBytes, type StoredBody } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { getString, mapRead, type Read } from '../redis/reads.ts';
import { chartKeys, type ChartModel } from './keys.ts';

export const chartRead = (page: PageRef, model: ChartModel): Read<StoredBody | null> =>
  mapRead(getString(chartKeys(page)[model]), fromBytes);
