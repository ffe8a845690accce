import { z } from 'zod';
import { MAX_RESPONSE_TIME_MS } from './bounds.ts';
import { MonitorId } from './common.ts';

export const CheckStatus = z.enum(['up', 'down', 'degraded']);
export type CheckStatus = z.infer<typeof CheckStatus>;

export const CheckRecorded = z
  .object({
    monitor_id: MonitorId,
    status: CheckStatus,
    response_time_ms: z.number().int().min(0).max(MAX_RESPONSE_TIME_MS),
  })
  .strict();
export type CheckRecorded = z.infer<typeof CheckRecorded>;
