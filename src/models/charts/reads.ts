// Typed read of the charts model.
import { fromBuffer, type StoredBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { getBuffer, mapRead, type Read } from '../redis/reads.ts';
import { chartKeys, type ChartModel } from './keys.ts';

export const chartRead = (page: PageRef, model: ChartModel): Read<StoredBytes | null> =>
  mapRead(getBuffer(chartKeys(page)[model]), fromBuffer);
