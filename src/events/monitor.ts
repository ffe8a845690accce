import { z } from 'zod';
import { MAX_POSITION } from './bounds.ts';
import { MonitorId } from './common.ts';
import { SlaTarget } from './page.ts';

export const Impact = z.enum(['major', 'partial', 'degraded', 'none']);
export type Impact = z.infer<typeof Impact>;

export const MonitorConfigured = z
  .object({
    monitor_id: MonitorId,
    name: z.string().min(1).max(200),
    type: z.string().min(1).max(50).default('http'),
    impact: Impact.default('partial'),
    position: z.number().int().min(-MAX_POSITION).max(MAX_POSITION).optional(),
    sla_target: SlaTarget.optional(),
  })
  .strict();
export type MonitorConfigured = z.infer<typeof MonitorConfigured>;

export const MonitorRemoved = z.object({ monitor_id: MonitorId }).strict();
