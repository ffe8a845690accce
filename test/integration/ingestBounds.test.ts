// Ingest admits only what the projector can project: timestamps, offsets, numbers and strings
// at and just past the bounds of docs/ingest.md, through both doors. A refused event names its
// field (HTTP: its index; CLI: its line) and nothing of its batch is appended.
import { Writable } from 'node:stream';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { sql } from 'slonik';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cliIngest } from '../../src/ingest/cliIngest.ts';
import { ingestRouter } from '../../src/ingest/ingestRouter.ts';
import { acceptedEdgeEvents, EDGE_NOW, refusedEdgeEvents } from '../support/edgeEvents.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';

const TOKEN = 'ingest-token-for-tests-0123456789';
const clock = () => new Date(EDGE_NOW);
const setup = [
  { type: 'page.configured', page: 'edge', at: '2026-11-22T10:00:00Z', data: { title: 'E', plan: 'pro' } },
  {
    type: 'monitor.configured',
    page: 'edge',
    at: '2026-11-22T10:00:00Z',
    data: { monitor_id: 9001, name: 'E' },
  },
];

const sink = () => {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
};

describe('the bounds of ingest', () => {
  let t: TestDatabase;
  let dir: string;
  const app = () =>
    express().use(
      ingestRouter({
        db: t.db,
        ingestToken: TOKEN,
        clock,
        log: pino({ level: 'silent' }),
        wake: () => Promise.resolve(),
      }),
    );
  const post = (batch: unknown[]) =>
    request(app())
      .post('/v1/events')
      .set('Authorization', `Bearer ${TOKEN}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(batch));
  const logCount = () =>
    t.db.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM event_log`);

  beforeAll(async () => {
    t = await freshDatabase();
    dir = await mkdtemp(join(tmpdir(), 'ingest-bounds-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('HTTP: refuses every out-of-bounds event with its index and field, appending nothing', async () => {
    const refused = refusedEdgeEvents();
    const res = await post([...setup, ...refused.map(([event]) => event)]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid events',
      details: refused.map(([, message], i) => ({ index: setup.length + i, message })),
    });
    expect(await logCount()).toBe(0);
  });

  it('HTTP: refuses each of them alone too (no 500, whatever the field)', async () => {
    for (const [event, message] of refusedEdgeEvents()) {
      const res = await post([event]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid events', details: [{ index: 0, message }] });
    }
    expect(await logCount()).toBe(0);
  });

  it('HTTP: refuses an event nested too deep, by its index, before anything walks it (no 500)', async () => {
    const nested = (levels: number) => {
      const text = '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
      return `{"type":"incident.opened","page":"edge","at":"2026-11-22T10:00:00Z","data":${text}}`;
    };
    // The event is level 1 and its data level 2: data may nest 31 objects (itself included).
    for (const [levels, refused] of [
      [31, false],
      [32, true],
      [50_000, true],
    ] as const) {
      const res = await request(app())
        .post('/v1/events')
        .set('Authorization', `Bearer ${TOKEN}`)
        .set('Content-Type', 'application/json')
        .send(`[${JSON.stringify(setup[0])},${nested(levels)}]`);
      expect([levels, res.status]).toEqual([levels, 400]);
      const nesting = { index: 1, message: 'event: nested more than 32 levels deep' };
      if (refused) expect(res.body).toEqual({ error: 'invalid events', details: [nesting] });
      else expect(res.body.details).not.toContainEqual(nesting); // refused by its schema instead
    }
    expect(await logCount()).toBe(0);
  });

  it('CLI: prints the line of every out-of-bounds event, exits 1 and appends nothing', async () => {
    const refused = refusedEdgeEvents();
    const path = join(dir, 'refused.ndjson');
    await writeFile(path, [...setup, ...refused.map(([e]) => e)].map((e) => JSON.stringify(e)).join('\n'));
    const out = sink();
    const err = sink();
    const code = await cliIngest({
      db: t.db,
      source: path,
      clock,
      wake: () => Promise.resolve(),
      out: out.stream,
      err: err.stream,
      isTTY: false,
    });
    expect(code).toBe(1);
    expect(out.text()).toBe('');
    expect(err.text()).toBe(
      refused.map(([, message], i) => `line ${String(setup.length + i + 1)}: ${message}\n`).join('') +
        `rejected: ${String(refused.length)} invalid events of ${String(setup.length + refused.length)}; nothing appended\n`,
    );
    expect(await logCount()).toBe(0);
  });

  it('admits every event at the edges, stored in UTC', async () => {
    const accepted = acceptedEdgeEvents();
    const res = await post(accepted);
    expect(res.body).toMatchObject({ accepted: accepted.length, duplicates: 0 });
    expect(res.status).toBe(202);
    const stored = await t.db.any(
      sql.type(z.object({ at: z.string(), end: z.string().nullable() }))`
        SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS at, data->>'scheduled_end' AS end
        FROM event_log ORDER BY position`,
    );
    expect(stored.map((row) => row.at).slice(0, 3)).toEqual([
      '2000-01-01T00:00:00.000',
      '2000-01-01T00:00:00.000',
      '2000-01-01T12:00:00.000',
    ]);
    expect(stored.map((row) => row.end).filter((end) => end !== null)).toEqual([
      '2036-11-22T12:00:00Z',
      '2026-11-22T10:00:00.001Z',
      '2036-11-22T11:59:59Z',
    ]);
  });
});
