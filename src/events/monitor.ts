import { z } from 'zod';
import { MonitorId } from './common.ts';

export const Impact = z.enum(['major', 'partial', 'degraded', 'none']);
export type Impact = z.infer<typeof Impact>;

export const MonitorConfigured = z
  .object({
    monitor_id: MonitorId,
    name: z.string().min(1).max(200),
    type: z.string().min(1).max(50).default('http'),
    impact: Impact.default('partial'),
    position: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  })
  .strict();
export type MonitorConfigured = z.infer<typeof MonitorConfigured>;

export const MonitorRemoved = z.object({ monitor_id: MonitorId }).strict();
