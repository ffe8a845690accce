// Write builder of the charts model: bodies are stored with their ETag (bytes.ts).
import { toBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { setOp, type WriteOp } from '../redis/writeOps.ts';
import { chartKeys, type ChartModel } from './keys.ts';

export const putChart = (page: PageRef, model: ChartModel, body: string): WriteOp =>
  setOp(chartKeys(page)[model], toBytes(body));
