// A CLI import of 50,000 events commits chunk by chunk, so HTTP ingest beside it keeps answering
// 202 and its events are committed between the import's chunks, not queued behind one long
// transaction (which would also hold every projector back: they read only below the oldest open
// transaction). The 1 million event run with its timings is `npx tsx bench/importBesideIngest.ts`
// (docs/ingest.md).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'slonik';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { CHUNK_SIZE, cliIngest } from '../../src/ingest/cliIngest.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';
import { INGEST_TOKEN, ingestApp } from '../support/testServers.ts';

const now = new Date('2026-11-22T12:00:00Z');
const EVENTS = 50_000;
const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

describe('a CLI import beside HTTP ingest', () => {
  let t: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    t = await freshDatabase();
    dir = await mkdtemp(join(tmpdir(), 'import-beside-'));
    await appendEvents(t.db, [pageConfigured('live'), monitorConfigured('live', 1)], { now });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('commits chunk by chunk while every HTTP batch is answered 202 between its chunks', async () => {
    const lines: object[] = [pageConfigured('bulk'), monitorConfigured('bulk', 2)];
    const start = Date.parse('2026-11-10T00:00:00Z');
    for (let i = lines.length; i < EVENTS; i++)
      lines.push(check('bulk', 2, new Date(start + i * 10_000).toISOString()));
    const path = join(dir, 'bulk.ndjson');
    await writeFile(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);

    const app = ingestApp(t.db, now);
    let done = false;
    const imported = cliIngest({
      db: t.db,
      source: path,
      clock: () => now,
      wake: () => Promise.resolve(),
      out: discard(),
      err: discard(),
      isTTY: false,
    }).finally(() => (done = true));
    const statuses: number[] = [];
    for (let i = 0; !done; i++) {
      const at = new Date(Date.parse('2026-11-22T11:00:00Z') + i * 1000).toISOString();
      const res = await request(app)
        .post('/v1/events')
        .set('Authorization', `Bearer ${INGEST_TOKEN}`)
        .send([{ id: `live-${String(i)}`, ...check('live', 1, at) }]);
      statuses.push(res.status);
    }
    expect(await imported).toBe(0);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 202)).toEqual([]);

    const Tx = z.object({ tx: z.string(), n: z.number(), page: z.string() });
    const transactions = await t.db.any(sql.type(Tx)`
      SELECT transaction_id::text AS tx, count(*)::int AS n, page FROM event_log
      WHERE page IN ('bulk', 'live') GROUP BY transaction_id, page ORDER BY transaction_id`);
    const bulk = transactions.filter((r) => r.page === 'bulk');
    expect(bulk.reduce((n, r) => n + r.n, 0)).toBe(EVENTS);
    expect(bulk).toHaveLength(Math.ceil(EVENTS / CHUNK_SIZE));
    expect(Math.max(...bulk.map((r) => r.n))).toBe(CHUNK_SIZE);
    // HTTP batches committed while the import was running, between two of its transactions.
    const [first, last] = [BigInt(bulk[0]!.tx), BigInt(bulk.at(-1)!.tx)];
    const between = transactions.filter(
      (r) => r.page === 'live' && BigInt(r.tx) > first && BigInt(r.tx) < last,
    );
    expect(between.length).toBeGreaterThan(0);
  }, 300_000);
});
