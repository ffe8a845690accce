import { z } from 'zod';
import { MAX_POSITION } from './bounds.ts';
import { MonitorId } from './common.ts';
import { SlaTarget } from './page.ts';

export const Impact = z.enum(['major', 'partial', 'degraded', 'none']);
export type Impact = z.infer<typeof Impact>;

/** A push monitor's expected heartbeat period, in seconds (docs/integrations.md). */
const PUSH_INTERVAL_S = { min: 30, max: 86_400 } as const;

/** A monitor's settings as the log holds them (events logged before push monitors existed included). */
export const MonitorConfigured = z
  .object({
    monitor_id: MonitorId,
    name: z.string().min(1).max(200),
    type: z.string().min(1).max(50).default('http'),
    impact: Impact.default('partial'),
    position: z.number().int().min(-MAX_POSITION).max(MAX_POSITION).optional(),
    sla_target: SlaTarget.optional(),
    push_interval_s: z.number().int().min(PUSH_INTERVAL_S.min).max(PUSH_INTERVAL_S.max).optional(),
    push_grace_s: z.number().int().min(30).max(PUSH_INTERVAL_S.max).optional(),
  })
  .strict();

/**
 * What ingest admits: the heartbeat settings belong to push monitors only, and a push monitor
 * needs its interval. Checked on the way in only, so a `type: "push"` logged before push monitors
 * existed still parses when the log is read back.
 */
export const IncomingMonitorConfigured = MonitorConfigured.superRefine((data, ctx) => {
  const push = data.type === 'push';
  if (push && data.push_interval_s === undefined)
    ctx.addIssue({ code: 'custom', path: ['push_interval_s'], message: 'required for a push monitor' });
  for (const field of ['push_interval_s', 'push_grace_s'] as const)
    if (!push && data[field] !== undefined)
      ctx.addIssue({ code: 'custom', path: [field], message: 'only for type "push"' });
});
export type MonitorConfigured = z.infer<typeof MonitorConfigured>;

export const MonitorRemoved = z.object({ monitor_id: MonitorId }).strict();

/** The grace after a missed heartbeat: as configured, else 10 % of the interval and at least 30 s. */
export const pushGraceS = (intervalS: number, graceS: number | undefined): number =>
  graceS ?? Math.max(30, Math.ceil(intervalS / 10));
