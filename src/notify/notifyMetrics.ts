// Prometheus metrics of the notifier (docs/notifications.md), exported at 0 from the start:
// messages sent, failed attempts, retries scheduled, subscribers quarantined (by channel, never
// by subscriber or address), and the outbox's backlog read when scraped.
import { Counter, Gauge, type Registry } from 'prom-client';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { guardedCollectors } from '../shared/guardedCollectors.ts';
import type { Logger } from '../shared/logger.ts';
import type { Channel } from './channel.ts';
import type { Settled } from './recordOutcomes.ts';
import { CHANNELS } from './senders.ts';

export type NotifyMetrics = Readonly<{ onAttempt: (channel: Channel, settled: Settled) => void }>;

const Backlog = z.object({ pending: z.number(), due: z.number(), oldest_due_s: z.number() });

const PENDING = 'notify_pending_messages';

export const createNotifyMetrics = (
  registry: Registry,
  sources: Readonly<{ db: DatabasePool; log: Logger }>,
): NotifyMetrics => {
  const counter = (name: string, help: string) => {
    const made = new Counter({ name, help, labelNames: ['channel'], registers: [registry] });
    for (const channel of CHANNELS) made.inc({ channel }, 0);
    return made;
  };
  const sent = counter('notify_sent_total', 'Messages delivered (2xx, or accepted by the mail server)');
  const failed = counter('notify_failed_total', 'Delivery attempts that did not deliver');
  const retried = counter('notify_retried_total', 'Failed deliveries scheduled to be tried again');
  const quarantined = counter(
    'notify_quarantined_total',
    'Subscribers quarantined: after the last retry, a permanent refusal or 410 Gone',
  );
  if (!registry.getSingleMetric(PENDING)) {
    const collectors = guardedCollectors(registry, (collector, error) => {
      sources.log.warn({ collector, err: (error as Error).message }, 'metrics: collector failed');
    });
    const gauge = (name: string, help: string) =>
      new Gauge({ name, help, registers: [registry], collect: collectors.collect });
    const pending = gauge(PENDING, 'Messages in the outbox not yet sent (due now or later)');
    const due = gauge('notify_due_messages', 'Messages whose time to be sent has come');
    const oldest = gauge('notify_oldest_due_age_seconds', 'How long the oldest due message has waited');
    collectors.add('notify_backlog', async () => {
      const row = await sources.db.one(sql.type(Backlog)`
        SELECT count(*)::int AS pending,
          (count(*) FILTER (WHERE due_at <= now()))::int AS due,
          COALESCE(EXTRACT(EPOCH FROM now() - min(due_at) FILTER (WHERE due_at <= now())), 0)::float8 AS oldest_due_s
        FROM notifications WHERE state = 'pending'`);
      pending.set(row.pending);
      due.set(row.due);
      oldest.set(row.oldest_due_s);
    });
  }
  return {
    onAttempt: (channel, settled) => {
      if (settled === 'sent') sent.inc({ channel });
      else failed.inc({ channel });
      if (settled === 'retrying') retried.inc({ channel });
      if (settled === 'quarantined') quarantined.inc({ channel });
    },
  };
};
