// Operator-managed subscribers in PostgreSQL (their own tables, never the log: erasing one is a
// DELETE no rebuild or replay brings back). Webhook secrets are shown once, in the answer that
// creates or rotates them.
import { createHash, randomBytes } from 'node:crypto';
import { sql, UniqueIntegrityConstraintViolationError, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { generateWebhookSecret } from '../senders/webhookSignature.ts';
import type { SubscriberInput } from './subscriberInput.ts';

export const newSubscriberId = (): string => `sub_${randomBytes(16).toString('base64url')}`;

/** SHA-256 of the normalised target: email trimmed and lower-cased, a URL as given. */
export const targetDigest = (channel: string, target: string): Buffer =>
  createHash('sha256')
    .update(channel === 'email' ? target.trim().toLowerCase() : target)
    .digest();

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const Row = z.object({
  id: z.string(),
  channel: z.string(),
  target: z.string(),
  components: z.array(z.string()),
  monitor_states: z.boolean(),
  format: z.string(),
  origin: z.string(),
  state: z.string(),
  created_at: z.number(),
  confirmed_at: z.number().nullable(),
  quarantined_at: z.number().nullable(),
});

/** Enough of the target to recognise it, never all of it: a URL's host, an address's domain. */
export const targetHint = (channel: string, target: string): string => {
  if (channel === 'email') return `…@${target.split('@').at(-1) ?? ''}`;
  try {
    return `https://${new URL(target).host}/…`;
  } catch {
    return '…';
  }
};

const view = (row: z.infer<typeof Row>) => ({
  id: row.id,
  channel: row.channel,
  target_hint: targetHint(row.channel, row.target),
  components: row.components,
  monitor_states: row.monitor_states,
  ...(row.channel === 'webhook' ? { format: row.format } : {}),
  origin: row.origin,
  state: row.state,
  created_at: iso(row.created_at),
  confirmed_at: iso(row.confirmed_at),
  quarantined_at: iso(row.quarantined_at),
});
export type SubscriberView = ReturnType<typeof view>;

const columns = sql.fragment`id, channel, target, components, monitor_states, format, origin, state,
  created_at, confirmed_at, quarantined_at`;

/** null when the page already has this target on this channel. */
export const createSubscriber = async (
  db: DatabasePool,
  page: string,
  input: SubscriberInput,
): Promise<{ id: string; secret?: string } | null> => {
  const id = newSubscriberId();
  const target = input.channel === 'email' ? input.email : input.url;
  const format = input.channel === 'webhook' ? input.format : 'native';
  const secret = input.channel === 'webhook' ? generateWebhookSecret() : undefined;
  try {
    await db.transaction(async (tx) => {
      await tx.query(sql.unsafe`
        INSERT INTO subscribers (id, page, channel, target, target_digest, components, monitor_states, format,
          origin, state, confirmed_at)
        VALUES (${id}, ${page}, ${input.channel}, ${target},
          ${sql.binary(targetDigest(input.channel, target))}, ${sql.array(input.components, 'text')},
          ${input.monitor_states}, ${format}, 'operator', 'active', now())`);
      if (secret !== undefined)
        await tx.query(
          sql.unsafe`INSERT INTO subscriber_secrets (subscriber_id, secret) VALUES (${id}, ${secret})`,
        );
    });
  } catch (error) {
    if (error instanceof UniqueIntegrityConstraintViolationError) return null;
    throw error;
  }
  return secret === undefined ? { id } : { id, secret };
};

export const listSubscribers = async (db: DatabasePool, page: string): Promise<SubscriberView[]> =>
  (
    await db.any(
      sql.type(Row)`SELECT ${columns} FROM subscribers WHERE page = ${page} ORDER BY created_at, id`,
    )
  ).map(view);

/** Erases the subscriber with its secrets, outbox rows and delivery log (cascades). */
export const deleteSubscriber = async (db: DatabasePool, page: string, id: string): Promise<boolean> =>
  (await db.query(sql.unsafe`DELETE FROM subscribers WHERE page = ${page} AND id = ${id}`)).rowCount > 0;

const ROTATION_OVERLAP = sql.fragment`interval '24 hours'`;

/** A new secret; the live ones keep signing for 24 h. 'not_webhook' for other channels, null when unknown. */
export const rotateSecret = async (
  db: DatabasePool,
  page: string,
  id: string,
): Promise<{ id: string; secret: string } | 'not_webhook' | null> =>
  db.transaction(async (tx) => {
    const channel = await tx.maybeOneFirst(sql.type(z.object({ channel: z.string() }))`
      SELECT channel FROM subscribers WHERE page = ${page} AND id = ${id} FOR UPDATE`);
    if (channel === null) return null;
    if (channel !== 'webhook') return 'not_webhook';
    const secret = generateWebhookSecret();
    await tx.query(sql.unsafe`
      UPDATE subscriber_secrets SET expires_at = now() + ${ROTATION_OVERLAP}
      WHERE subscriber_id = ${id} AND (expires_at IS NULL OR expires_at > now() + ${ROTATION_OVERLAP})`);
    await tx.query(
      sql.unsafe`DELETE FROM subscriber_secrets WHERE subscriber_id = ${id} AND expires_at <= now()`,
    );
    await tx.query(
      sql.unsafe`INSERT INTO subscriber_secrets (subscriber_id, secret) VALUES (${id}, ${secret})`,
    );
    return { id, secret };
  });

/** Active again after quarantine (or a 410); what happens from now on reaches it. */
export const enableSubscriber = async (
  db: DatabasePool,
  page: string,
  id: string,
): Promise<SubscriberView | null> => {
  const row = await db.maybeOne(sql.type(Row)`
    UPDATE subscribers SET state = CASE WHEN state = 'quarantined' THEN 'active' ELSE state END,
      quarantined_at = CASE WHEN state = 'quarantined' THEN NULL ELSE quarantined_at END
    WHERE page = ${page} AND id = ${id} RETURNING ${columns}`);
  return row === null ? null : view(row);
};

const Delivery = z.object({
  message_id: z.string(),
  type: z.string(),
  attempted_at: z.number(),
  outcome: z.string(),
  status_code: z.number().nullable(),
  latency_ms: z.number(),
});

/** The last 100 attempts, newest first; null when the subscriber is unknown. */
export const listDeliveries = async (db: DatabasePool, page: string, id: string) => {
  const known = await db.exists(
    sql.type(z.object({}))`SELECT 1 FROM subscribers WHERE page = ${page} AND id = ${id}`,
  );
  if (!known) return null;
  const rows = await db.any(sql.type(Delivery)`
    SELECT message_id, type, attempted_at, outcome, status_code, latency_ms FROM notification_deliveries
    WHERE subscriber_id = ${id} ORDER BY id DESC LIMIT 100`);
  return rows.map((row) => ({
    message_id: row.message_id,
    event: row.type,
    attempted_at: new Date(row.attempted_at).toISOString(),
    outcome: row.outcome,
    status_code: row.status_code,
    latency_ms: row.latency_ms,
  }));
};
