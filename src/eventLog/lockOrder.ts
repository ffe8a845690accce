// The advisory locks of an append transaction in one global order, so HTTP batches and imports
// cannot deadlock (docs/operations.md, "Ingest beside a CLI import").
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';

export const PAGE_LOCKS = 7421002;
export const DOMAIN_LOCKS = 7421003;
/** Taken first by every multi-chunk transaction: one import at a time. */
export const IMPORT_LOCK = 7421000;

/** After this long trying a key out of order, wait for it (PostgreSQL's deadlock check decides). */
const TRY_FOR_MS = 30_000;
const RETRY_MS = 20;

const before = (a: readonly [number, number], b: readonly [number, number]) =>
  a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

export const createLockOrder = (tx: DatabaseTransactionConnection) => {
  const held = new Set<string>();
  let highest: readonly [number, number] | null = null;

  const wait = async (namespace: number, keys: readonly number[]) => {
    await tx.query(sql.unsafe`
      SELECT pg_advisory_xact_lock(${namespace}, k) FROM unnest(${sql.array(keys, 'int4')}) AS k ORDER BY k`);
  };

  /** Tries `keys` until every one is ours; then waits for what is still missing. */
  const tryUntilFree = async (namespace: number, keys: readonly number[]) => {
    let missing = keys;
    for (const started = Date.now(); missing.length > 0 && Date.now() - started < TRY_FOR_MS;) {
      missing = await tx.anyFirst(sql.type(z.object({ k: z.number() }))`
        SELECT k FROM unnest(${sql.array(missing, 'int4')}) AS k
        WHERE NOT pg_try_advisory_xact_lock(${namespace}, k) ORDER BY k`);
      if (missing.length > 0) await sleep(RETRY_MS);
    }
    if (missing.length > 0) await wait(namespace, missing);
  };

  /** Locks `keys` of `namespace` until the transaction ends, never waiting out of order. */
  const lock = async (namespace: number, keys: readonly number[]): Promise<void> => {
    const fresh = [...new Set(keys)].filter((k) => !held.has(`${namespace}:${k}`)).sort((a, b) => a - b);
    const top = fresh.at(-1);
    if (top === undefined) return;
    const behind = fresh.filter((k) => highest !== null && before([namespace, k], highest));
    const ahead = fresh.filter((k) => !(highest !== null && before([namespace, k], highest)));
    if (behind.length > 0) await tryUntilFree(namespace, behind);
    if (ahead.length > 0) await wait(namespace, ahead);
    for (const k of fresh) held.add(`${namespace}:${k}`);
    const last: readonly [number, number] = [namespace, top];
    if (highest === null || before(highest, last)) highest = last;
  };

  return { lock };
};
