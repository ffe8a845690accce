// The notifications Alertmanager (webhook_config, version "4") and Grafana alerting (webhook
// contact point, version "1") send: the same envelope, Grafana's with a few fields more, which
// are accepted and ignored. Only what mapping and state need is checked.
import { z } from 'zod';
import { BoundedTimestamp } from '../events/bounds.ts';

const Labels = z.record(z.string(), z.string());

const Alert = z
  .object({
    status: z.enum(['firing', 'resolved']),
    labels: Labels,
    annotations: Labels.default({}),
    startsAt: BoundedTimestamp,
    // A firing alert's endsAt is Go's zero time (0001-01-01T00:00:00Z) or a guess: read only once resolved.
    endsAt: z.string().default(''),
    fingerprint: z.string().min(1).max(200),
  })
  .passthrough()
  .superRefine((alert, ctx) => {
    if (alert.status === 'resolved' && !BoundedTimestamp.safeParse(alert.endsAt).success)
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'a resolved alert needs a valid endsAt' });
  });
export type Alert = z.infer<typeof Alert>;

const envelope = <V extends string>(version: V) =>
  z
    .object({
      version: z.literal(version),
      status: z.enum(['firing', 'resolved']),
      receiver: z.string(),
      groupKey: z.string(),
      truncatedAlerts: z.number().int().min(0).default(0),
      alerts: z.array(Alert).max(10_000),
    })
    .passthrough();

export const AlertmanagerPayload = envelope('4');
export const GrafanaPayload = envelope('1');
export type AlertPayload = z.infer<typeof AlertmanagerPayload> | z.infer<typeof GrafanaPayload>;
