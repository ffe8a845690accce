// The public sign-up's rows in `subscribers`: created pending, confirmed, re-scoped, erased.
// Erasure is a DELETE (cascading to the outbox and delivery log): nothing is left to bring back.
import { createHash, randomBytes } from 'node:crypto';
import { sql, type CommonQueryMethods } from 'slonik';
import { z } from 'zod';

export const UNCONFIRMED_LIFETIME_DAYS = 7;

/** The form every digest and comparison uses: trimmed, lower-cased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export const emailDigest = (email: string): Buffer =>
  createHash('sha256').update(normaliseEmail(email), 'utf8').digest();

export const newSubscriberId = (): string => `sub_${randomBytes(16).toString('base64url')}`;

const Row = z.object({ id: z.string(), state: z.enum(['pending', 'active', 'quarantined']) });
export type SignedUp = z.infer<typeof Row>;

/**
 * The address's row on the page, created pending when new. A pending row takes the new
 * components and starts its 7 days again; a confirmed one is left as it is.
 */
export const signUp = async (
  db: CommonQueryMethods,
  input: Readonly<{ page: string; email: string; components: readonly string[] }>,
): Promise<SignedUp> =>
  db.one(sql.type(Row)`
    INSERT INTO subscribers (id, page, channel, target, target_digest, components, origin, state)
    VALUES (${newSubscriberId()}, ${input.page}, 'email', ${input.email.trim()},
      ${sql.binary(emailDigest(input.email))}, ${sql.array([...input.components], 'text')}, 'public', 'pending')
    ON CONFLICT (page, channel, target_digest) DO UPDATE SET
      components = CASE WHEN subscribers.state = 'pending' THEN EXCLUDED.components ELSE subscribers.components END,
      created_at = CASE WHEN subscribers.state = 'pending' THEN now() ELSE subscribers.created_at END
    RETURNING id, state`);

const Subscription = z.object({
  id: z.string(),
  page: z.string(),
  state: z.enum(['pending', 'active', 'quarantined']),
  components: z.array(z.string()),
});
export type Subscription = z.infer<typeof Subscription>;

/** The subscriber `id` of `page`, or null when it was erased (or never was). */
export const findSubscription = (db: CommonQueryMethods, id: string, page: string) =>
  db.maybeOne(sql.type(Subscription)`
    SELECT id, page, state, components FROM subscribers WHERE id = ${id} AND page = ${page}`);

/** Pending → active from now on; an active one stays as it is. False when the row is gone. */
export const confirmSubscription = async (
  db: CommonQueryMethods,
  id: string,
  page: string,
): Promise<boolean> => {
  const row = await db.maybeOne(sql.type(z.object({ id: z.string() }))`
    UPDATE subscribers
    SET state = CASE WHEN state = 'pending' THEN 'active' ELSE state END,
      confirmed_at = COALESCE(confirmed_at, now())
    WHERE id = ${id} AND page = ${page}
    RETURNING id`);
  return row !== null;
};

export const setComponents = async (
  db: CommonQueryMethods,
  id: string,
  page: string,
  components: readonly string[],
): Promise<boolean> =>
  (
    await db.query(sql.unsafe`
    UPDATE subscribers SET components = ${sql.array([...components], 'text')}
    WHERE id = ${id} AND page = ${page}`)
  ).rowCount === 1;

export const eraseSubscription = async (db: CommonQueryMethods, id: string, page: string): Promise<void> => {
  await db.query(sql.unsafe`DELETE FROM subscribers WHERE id = ${id} AND page = ${page}`);
};

/** Erases public sign-ups still unconfirmed 7 days after they were made; returns how many. */
export const eraseUnconfirmed = async (db: CommonQueryMethods, now: Date): Promise<number> =>
  (
    await db.query(sql.unsafe`
      DELETE FROM subscribers
      WHERE state = 'pending' AND origin = 'public'
        AND created_at < ${now.toISOString()}::timestamptz - make_interval(days => ${UNCONFIRMED_LIFETIME_DAYS})`)
  ).rowCount;
