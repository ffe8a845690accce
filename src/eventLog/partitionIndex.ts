// The per-partition-count index that lets projector partition p of N read only its own events,
// built concurrently on first use (docs/scaling.md, "Reading the log per partition").
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { z } from 'zod';

const LOCK = 7421012;
export const partitionIndexName = (count: number): string => `event_log_part${count}_idx`;

const Valid = z.object({ valid: z.boolean().nullable() });
const Leaf = z.object({ leaf: z.string(), parent: z.string() });

const isValid = async (db: CommonQueryMethods, name: string): Promise<boolean> =>
  (await db.maybeOneFirst(sql.type(Valid)`
    SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE c.relname = ${name} AND c.relnamespace = current_schema()::regnamespace`)) === true;

const definition = (count: number) =>
  sql.fragment`((page_hash % ${sql.literalValue(String(count))}::bigint), transaction_id, position)`;

/** Every leaf table of the log with the partitioned table it belongs to. */
const leaves = (db: CommonQueryMethods) =>
  db.any(sql.type(Leaf)`
    WITH RECURSIVE tree AS (
      SELECT i.inhrelid AS rel, i.inhparent AS parent FROM pg_inherits i WHERE i.inhparent = 'event_log'::regclass
      UNION ALL
      SELECT i.inhrelid, i.inhparent FROM pg_inherits i JOIN tree t ON i.inhparent = t.rel
    )
    SELECT c.relname AS leaf, p.relname AS parent FROM tree t
    JOIN pg_class c ON c.oid = t.rel JOIN pg_class p ON p.oid = t.parent
    WHERE c.relkind = 'r' ORDER BY c.relname`);

/** Tables that already have a valid index attached to `parentIndex` (built here or cloned). */
const attachedTables = async (db: CommonQueryMethods, parentIndex: string): Promise<Set<string>> =>
  new Set(
    await db.anyFirst(sql.type(z.object({ table: z.string() }))`
      SELECT t.relname AS table FROM pg_inherits h
      JOIN pg_index i ON i.indexrelid = h.inhrelid JOIN pg_class t ON t.oid = i.indrelid
      WHERE h.inhparent = to_regclass(${parentIndex}) AND i.indisvalid`),
  );

const build = async (db: CommonQueryMethods, count: number): Promise<void> => {
  const name = partitionIndexName(count);
  const suffix = `_part${count}_idx`;
  const indexOf = (table: string) => (table === 'event_log' ? name : `${table}${suffix}`);
  // Invalid leftovers of an interrupted build are dropped and built again.
  for (const table of ['event_log', 'event_log_checks'])
    await db.query(sql.unsafe`
      CREATE INDEX IF NOT EXISTS ${sql.identifier([indexOf(table)])} ON ONLY ${sql.identifier([table])} ${definition(count)}`);
  // Leaves first: a monthly table created after this listing clones the parent's index itself,
  // and one created before it is in `attached` below, so no leaf gets a second index to attach.
  const tables = await leaves(db);
  const attached = new Set([
    ...(await attachedTables(db, name)),
    ...(await attachedTables(db, indexOf('event_log_checks'))),
  ]);
  for (const { leaf, parent } of tables) {
    if (attached.has(leaf)) continue;
    const index = indexOf(leaf);
    await db.query(sql.unsafe`DROP INDEX CONCURRENTLY IF EXISTS ${sql.identifier([index])}`);
    await db.query(sql.unsafe`
      CREATE INDEX CONCURRENTLY ${sql.identifier([index])} ON ${sql.identifier([leaf])} ${definition(count)}`);
    await db.query(sql.unsafe`
      ALTER INDEX ${sql.identifier([indexOf(parent)])} ATTACH PARTITION ${sql.identifier([index])}`);
  }
  if (!attached.has('event_log_checks'))
    await db.query(sql.unsafe`
      ALTER INDEX ${sql.identifier([name])} ATTACH PARTITION ${sql.identifier([indexOf('event_log_checks')])}`);
};

/**
 * Makes sure the partition index for `count` exists and is valid; returns true when this call
 * built it. Safe to call from every process; cheap when it exists.
 */
export const ensurePartitionIndex = async (db: DatabasePool, count: number): Promise<boolean> => {
  const name = partitionIndexName(count);
  if (await isValid(db, name)) return false;
  return db.connect(async (connection) => {
    for (;;) {
      if (await isValid(connection, name)) return false;
      const locked = await connection.oneFirst(
        sql.type(z.object({ locked: z.boolean() }))`SELECT pg_try_advisory_lock(${LOCK}) AS locked`,
      );
      if (!locked) {
        await sleep(500);
        continue;
      }
      try {
        // A large log takes a while per table; the pool's statement timeout is for queries.
        await connection.query(sql.unsafe`SET statement_timeout = 0`);
        // A monthly table created between the listing and the attach leaves the parent invalid:
        // build again until it is valid.
        while (!(await isValid(connection, name))) await build(connection, count);
        return true;
      } finally {
        await connection.query(sql.unsafe`RESET statement_timeout`);
        await connection.query(sql.unsafe`SELECT pg_advisory_unlock(${LOCK})`);
      }
    }
  });
};
