import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { formatCheckpoint, readAfter, START, type Checkpoint } from '../../src/eventLog/readAfter.ts';
import { sql } from 'slonik';
import { z } from 'zod';
import { ensurePartitionIndex } from '../../src/eventLog/partitionIndex.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured } from '../support/events.ts';
import { waitForLogHorizon } from '../support/logHorizon.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';

const now = new Date('2026-11-22T12:00:00Z');
const page = (slug: string) => ({
  type: 'page.configured',
  page: slug,
  at: '2026-11-22T10:00:00Z',
  data: { title: slug, plan: 'pro' },
});

describe('readAfter', () => {
  let t: TestDatabase;
  // Two raw sessions play the concurrent writers (slonik forbids pool queries inside a transaction).
  let early: pg.Client;
  let late: pg.Client;
  beforeAll(async () => {
    t = await freshDatabase();
    early = new pg.Client({ connectionString: t.url });
    late = new pg.Client({ connectionString: t.url });
    await Promise.all([early.connect(), late.connect()]);
  });
  afterAll(async () => {
    await Promise.all([early.end(), late.end()]);
    await t.close();
  });

  const readAll = async (from: Checkpoint) => {
    const { rows, scannedTo } = await readAfter(t.db, from, { limit: 1000 });
    const last = rows.at(-1);
    return { rows, next: last ? { tx: last.tx, pos: last.position } : (scannedTo ?? from) };
  };

  it('never skips a transaction that took its position first but committed last (100 rounds)', async () => {
    let checkpoint = START;
    const seen: string[] = [];
    const insert = 'INSERT INTO event_log (type, page, page_hash, at, data) VALUES ($1, $2, 0, now(), $3)';
    for (let round = 0; round < 100; round += 1) {
      await waitForLogHorizon(t.url);
      // `early` takes the lower position first, `late` takes the next one and commits first.
      await early.query('BEGIN');
      await early.query(insert, ['page.configured', `early-${round}`, '{}']);
      await late.query(insert, ['page.configured', `late-${round}`, '{}']);
      const during = await readAll(checkpoint);
      // The late row is committed but above the open transaction's xmin: not visible yet.
      expect(during.rows.map((r) => r.page)).toEqual([]);
      checkpoint = during.next;
      await early.query('COMMIT');
      await waitForLogHorizon(t.url);
      const after = await readAll(checkpoint);
      seen.push(...after.rows.map((r) => r.page));
      checkpoint = after.next;
    }
    expect(seen).toHaveLength(200);
    for (let round = 0; round < 100; round += 1) {
      expect(seen).toContain(`early-${round}`);
      expect(seen).toContain(`late-${round}`);
    }
  });

  it('returns rows in numeric position order across digit lengths', async () => {
    const db = await freshDatabase();
    try {
      const slugs = Array.from({ length: 25 }, (_, i) => `p${i}`);
      await appendEvents(db.db, slugs.map(page), { now });
      await waitForLogHorizon(db.url);
      for (const partition of [undefined, { index: 0, count: 1 }]) {
        const { rows } = await readAfter(db.db, START, { limit: 100, ...(partition ? { partition } : {}) });
        expect(rows.map((r) => r.position)).toEqual(slugs.map((_, i) => String(i + 1)));
        expect(rows.map((r) => r.page)).toEqual(slugs);
      }
    } finally {
      await db.close();
    }
  });

  it('reads only the rows of a partition, through its index, from its own checkpoint', async () => {
    const db = await freshDatabase();
    try {
      const slugs = Array.from({ length: 12 }, (_, i) => `s${i}`);
      await appendEvents(db.db, slugs.map(page), { now });
      await waitForLogHorizon(db.url);
      expect(await ensurePartitionIndex(db.db, 3)).toBe(true);
      expect(await ensurePartitionIndex(db.db, 3)).toBe(false); // built once
      const all = await readAfter(db.db, START, { limit: 100 });
      expect(all.rows.map((r) => r.page)).toEqual(slugs);
      for (const index of [0, 1, 2]) {
        const own = all.rows.filter((r) => partitionOf(r.page, 3) === index);
        expect(own.length).toBeGreaterThan(0);
        const first = await readAfter(db.db, START, { limit: 2, partition: { index, count: 3 } });
        expect(first.rows).toEqual(own.slice(0, 2));
        // The checkpoint is the partition's own last row; reading on from it gives the rest.
        expect(first.scannedTo).toEqual({ tx: own[1]!.tx, pos: own[1]!.position });
        const rest = await readAfter(db.db, first.scannedTo!, { limit: 100, partition: { index, count: 3 } });
        expect(rest.rows).toEqual(own.slice(2));
        const after = await readAfter(db.db, rest.scannedTo ?? first.scannedTo!, {
          limit: 100,
          partition: { index, count: 3 },
        });
        expect(after).toEqual({ rows: [], scannedTo: null });
      }
      const limited = await readAfter(db.db, START, { limit: 2 });
      expect(limited.rows.map((r) => r.page)).toEqual(['s0', 's1']);
      expect(formatCheckpoint(limited.scannedTo!)).toBe(
        `${limited.rows[1]!.tx}:${limited.rows[1]!.position}`,
      );
    } finally {
      await db.close();
    }
  });

  it('builds the partition index on every table of the log, and months created later have it', async () => {
    const db = await freshDatabase();
    try {
      await appendEvents(
        db.db,
        [page('a'), monitorConfigured('a', 1), check('a', 1, '2026-10-31T23:59:00Z')],
        { now },
      );
      await ensurePartitionIndex(db.db, 5);
      await db.db.query(sql.unsafe`SELECT ensure_check_partition('2027-03-01')`);
      const indexed = await db.db.anyFirst(sql.type(z.object({ table: z.string() }))`
        SELECT t.relname AS table FROM pg_index i
        JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indisvalid AND pg_get_indexdef(c.oid) LIKE '%page_hash % ''5''::bigint%'
        ORDER BY 1`);
      const tables = await db.db.anyFirst(sql.type(z.object({ table: z.string() }))`
        SELECT c.relname AS table FROM pg_partition_tree('event_log') p
        JOIN pg_class c ON c.oid = p.relid ORDER BY 1`);
      expect(tables).toEqual(
        expect.arrayContaining(['event_log_checks_2026_10', 'event_log_checks_2027_03']),
      );
      expect(indexed).toEqual(tables);
    } finally {
      await db.close();
    }
  });
});
