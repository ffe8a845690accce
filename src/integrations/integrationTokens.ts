// Integration tokens (one page's alerting writes to that page) and push tokens (one push monitor
// reports in): shown once when created, kept only as SHA-256 digests, revocable.
import { randomBytes } from 'node:crypto';
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { hashToken } from '../shared/hashToken.ts';

export type TokenKind = 'integration' | 'push';

const TokenRow = z.object({
  id: z.string(),
  page: z.string(),
  kind: z.enum(['integration', 'push']),
  monitor_id: z.string().nullable(),
  created_at: z.number(),
  revoked_at: z.number().nullable(),
});
type TokenRow = z.infer<typeof TokenRow>;

export type TokenInfo = Readonly<{
  id: string;
  kind: TokenKind;
  monitor_id: number | null;
  created_at: string;
  revoked_at: string | null;
}>;

const infoOf = (row: TokenRow): TokenInfo => ({
  id: row.id,
  kind: row.kind,
  monitor_id: row.monitor_id === null ? null : Number(row.monitor_id),
  created_at: new Date(row.created_at).toISOString(),
  revoked_at: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
});

const columns = sql.fragment`token_id AS id, page, kind, monitor_id::text, created_at, revoked_at`;

/**
 * A new token for `page` (for a push token, its monitor; the monitor's earlier push tokens are
 * revoked). The plaintext is in the answer only.
 */
export const createToken = async (
  db: DatabasePool,
  page: string,
  kind: TokenKind,
  monitorId: number | null = null,
): Promise<TokenInfo & { token: string }> => {
  const token = `${kind === 'push' ? 'spp' : 'spi'}_${randomBytes(24).toString('base64url')}`;
  const id = `tok_${randomBytes(8).toString('hex')}`;
  const row = await db.transaction(async (tx) => {
    if (kind === 'push')
      await tx.query(sql.unsafe`
        UPDATE integration_tokens SET revoked_at = now()
        WHERE kind = 'push' AND monitor_id = ${monitorId} AND revoked_at IS NULL`);
    return tx.one(sql.type(TokenRow)`
      INSERT INTO integration_tokens (token_id, token_hash, page, kind, monitor_id)
      VALUES (${id}, ${hashToken(token)}, ${page}, ${kind}, ${monitorId}) RETURNING ${columns}`);
  });
  return { ...infoOf(row), token };
};

/** The page's tokens of one kind, newest first, without their secrets. */
export const listTokens = async (db: CommonQueryMethods, page: string): Promise<TokenInfo[]> =>
  (
    await db.any(sql.type(TokenRow)`
      SELECT ${columns} FROM integration_tokens WHERE page = ${page} ORDER BY created_at DESC, token_id`)
  ).map(infoOf);

/** Revokes the page's token `id`; false when the page has no such live token. */
export const revokeToken = async (db: CommonQueryMethods, page: string, id: string): Promise<boolean> =>
  (await db.maybeOne(sql.type(z.object({ token_id: z.string() }))`
    UPDATE integration_tokens SET revoked_at = now()
    WHERE page = ${page} AND token_id = ${id} AND revoked_at IS NULL RETURNING token_id`)) !== null;

/** The live token that `presented` is, found by its digest (the digest is the key: no timing leak). */
export const findToken = async (
  db: CommonQueryMethods,
  presented: string,
  kind: TokenKind,
): Promise<{ page: string; monitorId: number | null } | null> => {
  // A token dies with its page: a slug configured again after a deletion is another page.
  const row = await db.maybeOne(sql.type(TokenRow)`
    SELECT ${columns} FROM integration_tokens t
    WHERE token_hash = ${hashToken(presented)} AND kind = ${kind} AND revoked_at IS NULL
      AND NOT EXISTS (
        SELECT 1 FROM event_log e
        WHERE e.type = 'page.deleted' AND e.page = t.page AND e.recorded_at >= t.created_at)`);
  return row === null
    ? null
    : { page: row.page, monitorId: row.monitor_id === null ? null : Number(row.monitor_id) };
};
