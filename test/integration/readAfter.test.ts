import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { formatCheckpoint, readAfter, START, type Checkpoint } from '../../src/eventLog/readAfter.ts';
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

  it('filters by partition but reports how far it scanned', async () => {
    const db = await freshDatabase();
    try {
      await appendEvents(db.db, ['a', 'b', 'c', 'd', 'e', 'f'].map(page), { now });
      await waitForLogHorizon(db.url);
      const all = await readAfter(db.db, START, { limit: 100 });
      expect(all.rows.map((r) => r.page)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      const parts = await Promise.all(
        [0, 1].map((index) => readAfter(db.db, START, { limit: 100, partition: { index, count: 2 } })),
      );
      expect(parts.flatMap((p) => p.rows.map((r) => r.page)).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      const lastRow = all.rows.at(-1)!;
      for (const part of parts) expect(part.scannedTo).toEqual({ tx: lastRow.tx, pos: lastRow.position });
      const limited = await readAfter(db.db, START, { limit: 2 });
      expect(limited.rows.map((r) => r.page)).toEqual(['a', 'b']);
      expect(formatCheckpoint(limited.scannedTo!)).toBe(
        `${limited.rows[1]!.tx}:${limited.rows[1]!.position}`,
      );
    } finally {
      await db.close();
    }
  });
});
