// A CLI import must not block HTTP ingest: it commits a chunk per transaction, the check
// partitions a chunk needs are created before its transaction opens (not inside it, holding an
// ACCESS EXCLUSIVE lock until it commits), and an HTTP append that still has to wait for a lock gives up quickly
// with 503 and Retry-After (the batch is rolled back whole, so it can be sent again), never 500.
import { PassThrough, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { sql } from 'slonik';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { cliIngest } from '../../src/ingest/cliIngest.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';
import { INGEST_TOKEN, ingestApp } from '../support/testServers.ts';

const now = new Date('2026-11-22T12:00:00Z');
const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

describe('HTTP ingest while a CLI import is running', () => {
  let t: TestDatabase;
  const app = () => ingestApp(t.db, now);
  const post = (events: object[]) =>
    request(app())
      .post('/v1/events')
      .set('Authorization', `Bearer ${INGEST_TOKEN}`)
      .send(events)
      .timeout(3_000);

  beforeAll(async () => {
    t = await freshDatabase();
    await appendEvents(t.db, [pageConfigured('live'), monitorConfigured('live', 1)], { now });
  });
  afterAll(() => t.close());

  it('answers 503 with Retry-After, not 500, when the log stays locked, and 202 after', async () => {
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE event_log IN ACCESS EXCLUSIVE MODE');
      const res = await post([check('live', 1, '2026-11-22T11:00:00Z')]);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ error: 'service unavailable' });
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const res = await post([check('live', 1, '2026-11-22T11:00:00Z')]);
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(1);
  });

  it('appends checks of the month the import is writing while the import waits for input', async () => {
    const stdin = new PassThrough();
    const imported = cliIngest({
      db: t.db,
      source: '-',
      stdin,
      clock: () => now,
      wake: () => Promise.resolve(),
      out: discard(),
      err: discard(),
      isTTY: false,
    });
    const lines: object[] = [pageConfigured('bulk'), monitorConfigured('bulk', 2)];
    for (let i = 0; i < 3_000; i += 1)
      lines.push(check('bulk', 2, new Date(Date.parse('2026-10-20T00:00:00Z') + i * 10_000).toISOString()));
    stdin.write(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    // The import has committed its first chunk (in a transaction of its own) and waits for more input.
    const committed = sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM event_log WHERE page = 'bulk'`;
    for (let tries = 0; (await t.db.oneFirst(committed)) < 2_000; tries += 1) {
      if (tries > 500) throw new Error('the import never committed its first chunk');
      await sleep(20);
    }

    // A month without a partition before the import: the import had to make it.
    const res = await post([check('live', 1, '2026-10-25T11:30:00Z')]);
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(1);

    stdin.end();
    expect(await imported).toBe(0);
    expect(await t.db.oneFirst(committed)).toBe(3_002);
  });
});
