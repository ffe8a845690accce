// After the chaos, the notifications (notifications.md, "Once"): every outbox row settled, every
// delivery one of its subscriber's sent messages, every sent message received, and a message
// received twice only when a crash or a failed attempt left it to be sent again, under one id.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { renderDiscord } from '../../projections/notify/formats/discord.ts';
import { renderSlack } from '../../projections/notify/formats/slack.ts';
import type { NotificationMessage } from '../../projections/notify/message.ts';
import type { ChaosReceivers, ChaosSubscriber } from './subscribers.ts';

/** Why a message could be sent twice: a crash while it was in flight, or an attempt that failed. */
export type Cause = 'worker SIGKILL' | 'PostgreSQL restart';

export type NotifyFindings = Readonly<{
  subscribers: number;
  chatSubscribers: number;
  rows: number;
  sent: number;
  coalesced: number;
  /** Rows still pending, failed or dropped. */
  unsettled: number;
  checkpointAtHead: boolean;
  received: number;
  /** Webhook deliveries the standardwebhooks verifier refused. */
  unverified: number;
  /** Chat bodies the stand-ins refused. */
  chatRefused: number;
  /** Deliveries that are no sent message of the subscriber they reached. */
  foreign: number;
  /** Sent messages never received. */
  missing: number;
  /** Messages received more than once, and the receipts beyond the first. */
  duplicated: number;
  extraReceipts: number;
  /** Duplicated webhook messages whose every copy carried one webhook-id. */
  duplicatedWebhooks: number;
  duplicatedWebhooksSameId: number;
  /** One subscriber's same body under two ids, or one id with two bodies. */
  idMismatches: number;
  /** Duplicated messages by what left them to be sent again. */
  causes: ReadonlyMap<string, number>;
  /** Deliveries after the clean rebuild. */
  afterRebuild: number;
}>;

export const notifyPassed = (f: NotifyFindings): boolean =>
  f.sent > 0 &&
  f.unsettled === 0 &&
  f.checkpointAtHead &&
  f.unverified === 0 &&
  f.chatRefused === 0 &&
  f.foreign === 0 &&
  f.missing === 0 &&
  f.idMismatches === 0 &&
  f.duplicatedWebhooks === f.duplicatedWebhooksSameId &&
  (f.causes.get('unexplained') ?? 0) === 0 &&
  f.afterRebuild === 0;

const count = z.object({ n: z.number() });

export const notifierAtHead = async (db: DatabasePool): Promise<boolean> =>
  db.oneFirst(sql.type(z.object({ caught: z.boolean() }))`
    SELECT coalesce(split_part(c.checkpoint, ':', 2)::bigint >= (SELECT max(position) FROM event_log), false)
      AS caught
    FROM (SELECT 1) one LEFT JOIN notifier_checkpoints c ON true`);

/** Until the notifier has read the whole log and nothing is pending, or `timeoutMs`. */
export const waitForOutboxDrained = async (db: DatabasePool, timeoutMs: number): Promise<void> => {
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    const pending = await db.oneFirst(sql.type(count)`
      SELECT count(*)::int AS n FROM notifications WHERE state = 'pending'`);
    if (pending === 0 && (await notifierAtHead(db))) return;
    await sleep(500);
  }
};

/**
 * The messages claimed and not yet recorded (leased, not due): read just after a crash, those the
 * crashed process had in flight are among them. Its own connection, retried: PostgreSQL may be
 * coming back.
 */
export const leasedMessages = async (dbUrl: string): Promise<string[]> => {
  for (let attempt = 0; ; attempt += 1) {
    const client = new pg.Client({ connectionString: dbUrl });
    try {
      await client.connect();
      const { rows } = await client.query<{ message_id: string }>(`
        SELECT message_id FROM notifications WHERE state = 'pending' AND attempts > 0 AND due_at > now()`);
      return rows.map((row) => row.message_id);
    } catch (error) {
      if (attempt >= 100) throw error;
      await sleep(200);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
};

const Row = z.object({
  subscriber_id: z.string(),
  message_id: z.string(),
  state: z.string(),
  payload: z.unknown(),
});

/** JSON with every object's keys sorted: a body compared whatever order its keys came in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
const chatBody = (subscriber: ChaosSubscriber, payload: unknown): string =>
  canonical((subscriber.channel === 'slack' ? renderSlack : renderDiscord)(payload as NotificationMessage));
const parsedBody = (body: string): string => {
  try {
    return canonical(JSON.parse(body));
  } catch {
    return body;
  }
};

const tally = <K>(keys: readonly K[]): Map<K, number> => {
  const counts = new Map<K, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
};

export const notifyFindings = async (
  db: DatabasePool,
  receivers: ChaosReceivers,
  inFlight: ReadonlyMap<string, Cause>,
  afterRebuild: number,
): Promise<NotifyFindings> => {
  const rows = await db.any(
    sql.type(Row)`SELECT subscriber_id, message_id, state, payload FROM notifications`,
  );
  const failedAttempts = new Set(
    await db.anyFirst(sql.type(z.object({ message_id: z.string() }))`
      SELECT DISTINCT message_id FROM notification_deliveries WHERE outcome <> 'delivered'`),
  );
  const byPath = new Map(receivers.subscribers.map((s) => [s.path, s]));
  const sentOf = new Map<string, Map<string, string>>(); // subscriber → message id → body key
  for (const row of rows.filter((r) => r.state === 'sent')) {
    const subscriber = receivers.subscribers.find((s) => s.id === row.subscriber_id);
    const key =
      subscriber?.channel === 'webhook' || !subscriber ? row.message_id : chatBody(subscriber, row.payload);
    sentOf.set(row.subscriber_id, (sentOf.get(row.subscriber_id) ?? new Map()).set(row.message_id, key));
  }
  // Each delivery as (subscriber, message id, body); a chat body names its message by matching
  // the body the sender renders from a sent row.
  const received = receivers.received();
  const deliveries = received.map(({ request }) => {
    const subscriber = byPath.get(request.path);
    const sent = subscriber
      ? (sentOf.get(subscriber.id) ?? new Map<string, string>())
      : new Map<string, string>();
    const body = parsedBody(request.body);
    const id =
      subscriber?.channel === 'webhook'
        ? String(request.headers['webhook-id'])
        : ([...sent].find(([, key]) => key === body)?.[0] ?? null);
    return {
      subscriber: subscriber?.id ?? request.path,
      webhook: subscriber?.channel === 'webhook',
      id,
      body,
    };
  });
  const isSent = (d: (typeof deliveries)[number]) =>
    d.id !== null && (sentOf.get(d.subscriber)?.has(d.id) ?? false);
  const receipts = tally(deliveries.filter(isSent).map((d) => `${d.subscriber}\u0000${d.id}`));
  const duplicated = [...receipts].filter(([, n]) => n > 1);
  const causes = tally(
    duplicated.map(([key]) => {
      const id = key.split('\u0000')[1]!;
      return inFlight.get(id) ?? (failedAttempts.has(id) ? 'a failed attempt' : 'unexplained');
    }),
  );
  // Ids against bodies, per subscriber: a retry repeats both; anything else is a second message.
  const idsOfBody = new Map<string, Set<string | null>>();
  const bodiesOfId = new Map<string, Set<string>>();
  for (const d of deliveries) {
    const bodyKey = `${d.subscriber}\u0000${d.body}`;
    idsOfBody.set(bodyKey, (idsOfBody.get(bodyKey) ?? new Set()).add(d.id));
    const idKey = `${d.subscriber}\u0000${d.id}`;
    bodiesOfId.set(idKey, (bodiesOfId.get(idKey) ?? new Set()).add(d.body));
  }
  const duplicatedWebhooks = [...idsOfBody].filter(
    ([key]) => deliveries.filter((d) => d.webhook && `${d.subscriber}\u0000${d.body}` === key).length > 1,
  );
  const sentCount = [...sentOf.values()].reduce((n, m) => n + m.size, 0);
  return {
    subscribers: receivers.subscribers.length,
    chatSubscribers: receivers.subscribers.filter((s) => s.channel !== 'webhook').length,
    rows: rows.length,
    sent: sentCount,
    coalesced: rows.filter((r) => r.state === 'coalesced').length,
    unsettled: rows.filter((r) => r.state !== 'sent' && r.state !== 'coalesced').length,
    checkpointAtHead: await notifierAtHead(db),
    received: received.length,
    unverified: received.filter((r) => r.verified === false).length,
    chatRefused: receivers.chatRefused().length,
    foreign: deliveries.filter((d) => !isSent(d)).length,
    missing: sentCount - receipts.size,
    duplicated: duplicated.length,
    extraReceipts: duplicated.reduce((n, [, k]) => n + k - 1, 0),
    duplicatedWebhooks: duplicatedWebhooks.length,
    duplicatedWebhooksSameId: duplicatedWebhooks.filter(([, ids]) => ids.size === 1).length,
    idMismatches:
      [...idsOfBody.values()].filter((ids) => ids.size > 1).length +
      [...bodiesOfId.values()].filter((bodies) => bodies.size > 1).length,
    causes,
    afterRebuild,
  };
};
