import { z } from 'zod';
import { MonitorId } from './common.ts';

export const CheckStatus = z.enum(['up', 'down', 'degraded']);
export type CheckStatus = z.infer<typeof CheckStatus>;

export const CheckRecorded = z
  .object({
    monitor_id: MonitorId,
    status: CheckStatus,
    response_time_ms: z.number().int().min(0).max(86_400_000),
  })
  .strict();
export type CheckRecorded = z.infer<typeof CheckRecorded>;
