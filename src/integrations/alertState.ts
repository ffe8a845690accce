// The alerts remembered per monitor (integration_alerts), read and written under a per-page lock
// so two notifications for one page are planned one after the other.
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import { pageHash } from '../shared/pageHash.ts';
import type { AlertRow } from './alertChecks.ts';

/** Resolved alerts are forgotten this long after their end: later notifications no longer name them. */
const FORGET_AFTER_MS = 7 * 86_400_000;
/** Advisory lock class of alert state, apart from the append path's page locks (lockOrder.ts). */
const ALERT_STATE_LOCKS = 0x616c7274; // "alrt"

const Row = z.object({
  monitor_id: z.string(),
  fingerprint: z.string(),
  starts_at: z.number(),
  status: z.enum(['down', 'degraded']),
  ends_at: z.number().nullable(),
});

/** Holds the page's alert state until the transaction ends. */
export const lockAlertState = async (tx: DatabaseTransactionConnection, page: string): Promise<void> => {
  await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${ALERT_STATE_LOCKS}, ${pageHash(page) | 0})`);
};

export const loadAlertRows = async (
  tx: DatabaseTransactionConnection,
  page: string,
  monitorIds: readonly number[],
): Promise<AlertRow[]> => {
  if (monitorIds.length === 0) return [];
  const rows = await tx.any(sql.type(Row)`
    SELECT monitor_id::text, fingerprint, starts_at, status, ends_at FROM integration_alerts
    WHERE page = ${page} AND monitor_id = ANY(${sql.array(monitorIds, 'int8')})`);
  return rows.map((row) => ({
    monitorId: Number(row.monitor_id),
    fingerprint: row.fingerprint,
    startsMs: row.starts_at,
    status: row.status,
    endsMs: row.ends_at,
  }));
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const saveAlertRows = async (
  tx: DatabaseTransactionConnection,
  page: string,
  rows: readonly AlertRow[],
  now: Date,
): Promise<void> => {
  if (rows.length > 0)
    await tx.query(sql.unsafe`
      INSERT INTO integration_alerts (page, monitor_id, fingerprint, starts_at, status, ends_at)
      SELECT ${page}, * FROM ${sql.unnest(
        rows.map((r) => [r.monitorId, r.fingerprint, iso(r.startsMs), r.status, iso(r.endsMs)]),
        ['int8', 'text', 'timestamptz', 'text', 'timestamptz'],
      )}
      ON CONFLICT (page, monitor_id, fingerprint, starts_at) DO UPDATE SET status = EXCLUDED.status,
        ends_at = COALESCE(EXCLUDED.ends_at, integration_alerts.ends_at)`);
  await tx.query(sql.unsafe`
    DELETE FROM integration_alerts WHERE page = ${page} AND ends_at < ${iso(now.getTime() - FORGET_AFTER_MS)}`);
};
