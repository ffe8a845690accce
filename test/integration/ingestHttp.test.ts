import { createHash } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { Writable } from 'node:stream';
import express, { type Express } from 'express';
import type { Redis } from 'ioredis';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { pino } from 'pino';
import { sql, type DatabasePool } from 'slonik';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDb } from '../../src/eventLog/createDb.ts';
import { PROBE_TIMEOUT_MS, probesRouter } from '../../src/http/probes.ts';
import { ingestRouter } from '../../src/ingest/ingestRouter.ts';
import { tcpProxy } from '../support/tcpProxy.ts';
import { freshDatabase, redisAway, testRedis, type TestDatabase } from '../support/testEnv.ts';

const TOKEN = 'ingest-token-for-tests-0123456789';
const PAGE_TOKEN = 'page-secret-token-abcdef-98765';
const clock = () => new Date('2026-11-22T12:00:00Z');
const AT = '2026-11-22T11:00:00Z';

let slugs = 0;
const slug = () => `page-${String((slugs += 1))}`;
let monitorIds = 100;
const monitorId = () => (monitorIds += 1);

const ev = (type: string, page: string, data: object) => ({ type, page, at: AT, data });
const pageConfigured = (page: string, data: object = {}) =>
  ev('page.configured', page, { title: page, plan: 'pro', ...data });
const monitorConfigured = (page: string, id: number) =>
  ev('monitor.configured', page, { monitor_id: id, name: `m${String(id)}` });
const checkRecorded = (page: string, id: number, status = 'up') =>
  ev('check.recorded', page, { monitor_id: id, status, response_time_ms: 120 });
const incidentOpened = (page: string, id: string) =>
  ev('incident.opened', page, { incident_id: id, title: 'Down', message: 'Looking' });
const maintenanceScheduled = (page: string, id: string) =>
  ev('maintenance.scheduled', page, {
    maintenance_id: id,
    title: 'Upgrade',
    scheduled_start: '2026-11-23T01:00:00Z',
    scheduled_end: '2026-11-23T02:00:00Z',
  });

const memoryLog = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, log: pino({ level: 'trace' }, stream) };
};

describe('POST /v1/events and probes', () => {
  let t: TestDatabase;
  let redis: RedisClient;
  let app: Express;
  const captured = memoryLog();
  const woken: string[][] = [];
  let wakeFails = false;

  const buildApp = (deps: { db?: DatabasePool; redis?: RedisClient; ingestToken?: string | null } = {}) =>
    express()
      .use(probesRouter({ db: deps.db ?? t.db, redis: deps.redis ?? redis, prefix: 'probes-test' }))
      .use(
        ingestRouter({
          db: deps.db ?? t.db,
          ingestToken: deps.ingestToken === undefined ? TOKEN : deps.ingestToken,
          clock,
          log: captured.log,
          wake: (pages) => {
            woken.push(pages);
            return wakeFails ? Promise.reject(new Error('redis is away')) : Promise.resolve();
          },
        }),
      );

  beforeAll(async () => {
    t = await freshDatabase();
    redis = testRedis();
    app = buildApp();
  });
  afterAll(async () => {
    redis.disconnect();
    await t.close();
  });
  beforeEach(() => {
    woken.length = 0;
    wakeFails = false;
  });

  const post = (body: unknown, options: { token?: string | null; type?: string } = {}) => {
    let req = request(app).post('/v1/events');
    const token = options.token === undefined ? TOKEN : options.token;
    if (token !== null) req = req.set('Authorization', `Bearer ${token}`);
    const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    return req.set('Content-Type', options.type ?? 'application/json').send(raw);
  };
  const logCount = () =>
    t.db.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM event_log`);
  const lastPosition = () =>
    t.db.oneFirst(sql.type(z.object({ p: z.string() }))`SELECT max(position)::text AS p FROM event_log`);

  /** Posts a batch that must be rejected; returns its details and checks nothing was appended. */
  const rejected = async (batch: unknown[]) => {
    const before = await logCount();
    const res = await post(batch);
    expect(res.status).toBe(400);
    const body = res.body as { error: string; details: unknown };
    expect(body.error).toBe('invalid events');
    expect(await logCount()).toBe(before);
    return body.details;
  };

  describe('a valid batch', () => {
    it('answers 202 with the counts and the last log position, and wakes the pages', async () => {
      const page = slug();
      const id = monitorId();
      const batch = [pageConfigured(page), monitorConfigured(page, id), checkRecorded(page, id)].map(
        (e, i) => ({
          ...e,
          id: `${page}-${String(i)}`,
        }),
      );
      const res = await post(batch);
      expect(res.status).toBe(202);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ accepted: 3, duplicates: 0, last_position: await lastPosition() });
      expect(woken).toEqual([[page]]);

      const again = await post(batch);
      expect(again.status).toBe(202);
      expect(again.body).toEqual({ accepted: 0, duplicates: 3, last_position: null });
      expect(woken).toEqual([[page]]); // nothing new: nobody to wake
    });

    it('takes an NDJSON body, ignoring blank lines', async () => {
      const page = slug();
      const body = `${JSON.stringify(pageConfigured(page))}\n\n${JSON.stringify(incidentOpened(page, 'i1'))}\r\n`;
      const res = await post(body, { type: 'application/x-ndjson' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ accepted: 2, duplicates: 0, last_position: await lastPosition() });
    });

    it('counts references made earlier in the same batch', async () => {
      const page = slug();
      const id = monitorId();
      const res = await post([
        pageConfigured(page),
        monitorConfigured(page, id),
        checkRecorded(page, id),
        incidentOpened(page, 'inc-1'),
        ev('incident.updated', page, { incident_id: 'inc-1', state: 'resolved', message: 'Fixed' }),
        maintenanceScheduled(page, 'mnt-1'),
        ev('maintenance.started', page, { maintenance_id: 'mnt-1' }),
        ev('monitor.removed', page, { monitor_id: id }),
      ]);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ accepted: 8, duplicates: 0 });
    });

    it('accepts a weak page token as the spec does, and logs a warning naming the page, never the token', async () => {
      const [weak, strong] = [slug(), slug()];
      const res = await post([
        pageConfigured(strong, { auth_token: PAGE_TOKEN }),
        pageConfigured(weak, { auth_token: '0123456789abcdef' }),
      ]);
      expect([res.status, res.body.accepted]).toEqual([202, 2]);
      const warnings = captured.lines.filter((line) => line.includes('weak page token'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({
        level: 40,
        event: 1,
        msg:
          `ingest: weak page token: page "${weak}": auth_token carries at most 64 bits of randomness, ` +
          'fewer than 128: replace it with 32 random hex characters (openssl rand -hex 16) or more',
      });
      expect(warnings[0]).not.toContain('0123456789abcdef');
    });

    it('still answers 202 when waking the projectors fails, and logs it', async () => {
      wakeFails = true;
      const res = await post([pageConfigured(slug())]);
      expect(res.status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(captured.lines.join('')).toContain('waking projectors failed');
    });
  });

  describe('invalid events', () => {
    it('rejects the whole batch and names the bad event', async () => {
      const page = slug();
      const id = monitorId();
      const details = await rejected([
        pageConfigured(page),
        checkRecorded(page, id, 'sideways'),
        monitorConfigured(page, id),
      ]);
      expect(details).toEqual([
        {
          index: 1,
          message:
            "data.status: Invalid enum value. Expected 'up' | 'down' | 'degraded', received 'sideways'",
        },
      ]);
    });

    it('names every bad event', async () => {
      const page = slug();
      const details = await rejected([
        pageConfigured(page, { plan: 'platinum' }),
        ev('page.exploded', page, {}),
        ev('page.deleted', 'Not_A_Slug', {}),
      ]);
      expect(details).toEqual([
        {
          index: 0,
          message:
            "data.plan: Invalid enum value. Expected 'free' | 'pro' | 'growth' | 'business' | 'oss_hero' | 'enterprise', received 'platinum'",
        },
        { index: 1, message: 'type: unknown event type "page.exploded"' },
        { index: 2, message: 'page: invalid page slug' },
      ]);
    });

    it("refuses a page locale outside the supported set, in the spec's error style", async () => {
      const page = slug();
      expect(
        await rejected([pageConfigured(page, { locale: 'it' }), pageConfigured(page, { locale: 'pt' })]),
      ).toEqual([
        { index: 0, message: 'data.locale: unsupported locale (one of en, de, fr, es, pt-BR, ja)' },
        { index: 1, message: 'data.locale: unsupported locale (one of en, de, fr, es, pt-BR, ja)' },
      ]);
      expect((await post([pageConfigured(page, { locale: 'pt-br' })])).status).toBe(202);
    });

    it('rejects an event more than 5 minutes in the future', async () => {
      const page = slug();
      const ok = await post([{ ...pageConfigured(page), at: '2026-11-22T12:05:00Z' }]);
      expect(ok.status).toBe(202);
      expect(await rejected([{ ...pageConfigured(page), at: '2026-11-22T12:05:01Z' }])).toEqual([
        { index: 0, message: 'at: more than 5 minutes in the future' },
      ]);
    });

    it('rejects unknown data fields and unknown envelope fields', async () => {
      const page = slug();
      expect(
        await rejected([pageConfigured(page, { colour: 'red' }), { ...pageConfigured(page), extra: 1 }]),
      ).toEqual([
        { index: 0, message: "data: Unrecognized key(s) in object: 'colour'" },
        { index: 1, message: "Unrecognized key(s) in object: 'extra'" },
      ]);
    });

    it('rejects an event for a page that does not exist', async () => {
      const page = slug();
      expect(await rejected([incidentOpened(page, 'i1')])).toEqual([
        { index: 0, message: `page "${page}" does not exist` },
      ]);
    });

    it('rejects checks of a missing, foreign or removed monitor', async () => {
      const [a, b] = [slug(), slug()];
      const [mine, foreign, removed] = [monitorId(), monitorId(), monitorId()];
      const setup = await post([
        pageConfigured(a),
        pageConfigured(b),
        monitorConfigured(a, mine),
        monitorConfigured(b, foreign),
        monitorConfigured(a, removed),
        ev('monitor.removed', a, { monitor_id: removed }),
      ]);
      expect(setup.status).toBe(202);
      const missing = monitorId();
      expect(
        await rejected([
          checkRecorded(a, mine),
          checkRecorded(a, missing),
          checkRecorded(a, foreign),
          checkRecorded(a, removed),
          ev('monitor.removed', a, { monitor_id: foreign }),
        ]),
      ).toEqual([
        { index: 1, message: `monitor ${String(missing)} does not exist on page "${a}"` },
        { index: 2, message: `monitor ${String(foreign)} does not exist on page "${a}"` },
        { index: 3, message: `monitor ${String(removed)} does not exist on page "${a}"` },
        { index: 4, message: `monitor ${String(foreign)} does not exist on page "${a}"` },
      ]);
    });

    it('keeps a monitor id unique across pages', async () => {
      const [a, b] = [slug(), slug()];
      const id = monitorId();
      expect((await post([pageConfigured(a), pageConfigured(b), monitorConfigured(a, id)])).status).toBe(202);
      expect(await rejected([monitorConfigured(b, id)])).toEqual([
        { index: 0, message: `monitor ${String(id)} belongs to another page` },
      ]);
    });

    it('rejects updates of a missing incident or maintenance', async () => {
      const [a, b] = [slug(), slug()];
      expect(
        (
          await post([
            pageConfigured(a),
            pageConfigured(b),
            incidentOpened(b, 'i1'),
            maintenanceScheduled(b, 'm1'),
          ])
        ).status,
      ).toBe(202);
      expect(
        await rejected([
          ev('incident.updated', a, { incident_id: 'i1', state: 'identified', message: 'Found it' }),
          ev('maintenance.updated', a, { maintenance_id: 'm1', title: 'Bigger upgrade' }),
          ev('maintenance.started', a, { maintenance_id: 'm1' }),
          ev('maintenance.completed', a, { maintenance_id: 'm1' }),
          ev('maintenance.cancelled', a, { maintenance_id: 'm1' }),
        ]),
      ).toEqual([
        { index: 0, message: `incident "i1" does not exist on page "${a}"` },
        { index: 1, message: `maintenance "m1" does not exist on page "${a}"` },
        { index: 2, message: `maintenance "m1" does not exist on page "${a}"` },
        { index: 3, message: `maintenance "m1" does not exist on page "${a}"` },
        { index: 4, message: `maintenance "m1" does not exist on page "${a}"` },
      ]);
    });

    it('treats every event after page.deleted as referring to a missing page', async () => {
      const page = slug();
      const id = monitorId();
      expect(
        await rejected([
          pageConfigured(page),
          monitorConfigured(page, id),
          ev('page.deleted', page, {}),
          checkRecorded(page, id),
        ]),
      ).toEqual([{ index: 3, message: `page "${page}" does not exist` }]);

      expect((await post([pageConfigured(page), ev('page.deleted', page, {})])).status).toBe(202);
      expect(await rejected([incidentOpened(page, 'i1')])).toEqual([
        { index: 0, message: `page "${page}" does not exist` },
      ]);
    });

    it('reports a line of an NDJSON body that is not JSON as an invalid event', async () => {
      const page = slug();
      const before = await logCount();
      const res = await post(`${JSON.stringify(pageConfigured(page))}\n\n{"type": \n`, {
        type: 'application/x-ndjson',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid events', details: [{ index: 1, message: 'invalid JSON' }] });
      expect(await logCount()).toBe(before);
    });
  });

  describe('refused requests', () => {
    it('answers 401 without a token or with a wrong one', async () => {
      for (const token of [null, 'wrong-token-of-some-length', `${TOKEN}x`]) {
        const res = await post([pageConfigured(slug())], { token });
        expect(res.status).toBe(401);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toEqual({ error: 'unauthorized' });
      }
      const basic = await request(app).post('/v1/events').set('Authorization', `Basic ${TOKEN}`).send([]);
      expect(basic.status).toBe(401);
    });

    it('answers 503 when no ingest token is configured, before looking at the credentials', async () => {
      const disabled = buildApp({ ingestToken: null });
      for (const auth of [`Bearer ${TOKEN}`, 'Bearer nope']) {
        const res = await request(disabled)
          .post('/v1/events')
          .set('Authorization', auth)
          .send([pageConfigured(slug())]);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'ingest disabled' });
      }
    });

    it('answers 415 for other content types', async () => {
      for (const type of ['text/plain', 'application/xml', 'application/jsonx']) {
        const res = await post('[]', { type });
        expect(res.status).toBe(415);
        expect(res.body).toEqual({ error: 'unsupported content type' });
      }
      const none = await request(app)
        .post('/v1/events')
        .set('Authorization', `Bearer ${TOKEN}`)
        .send(Buffer.from('[]'));
      expect(none.status).toBe(415);
    });

    it('accepts a charset parameter on the content type', async () => {
      const res = await post([pageConfigured(slug())], { type: 'application/json; charset=utf-8' });
      expect(res.status).toBe(202);
    });

    it('answers 400 for a malformed body', async () => {
      const cases: [string, string][] = [
        ['[{"type": ', 'application/json'],
        ['{"type": "page.deleted"}', 'application/json'],
        ['[]', 'application/json'],
        ['', 'application/json'],
        ['\n  \n', 'application/x-ndjson'],
      ];
      for (const [body, type] of cases) {
        const res = await post(body, { type });
        expect(res.status, body).toBe(400);
        expect(res.body).toEqual({ error: 'malformed body' });
      }
      // ["\xff"]: JSON once decoded leniently, but not UTF-8.
      const notUtf8 = await post(Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]));
      expect(notUtf8.status).toBe(400);
      expect(notUtf8.body).toEqual({ error: 'malformed body' });
    });

    it('answers 413 for more than 10,000 events', async () => {
      const page = slug();
      const events = Array.from({ length: 10_001 }, () => checkRecorded(page, 1));
      const json = await post(events);
      expect(json.status).toBe(413);
      expect(json.body).toEqual({ error: 'too many events' });
      const ndjson = await post(events.map((e) => JSON.stringify(e)).join('\n'), {
        type: 'application/x-ndjson',
      });
      expect(ndjson.status).toBe(413);
      expect(ndjson.body).toEqual({ error: 'too many events' });
    });

    it('answers 413 for a body over 10 MB, declared or streamed', async () => {
      const big = `[${' '.repeat(10 * 1024 * 1024)}]`;
      const declared = await post(big);
      expect(declared.status).toBe(413);
      expect(declared.body).toEqual({ error: 'payload too large' });

      // Chunked, without Content-Length: the limit is found while reading.
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as net.AddressInfo;
        const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/v1/events',
              headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
            },
            (res) => {
              let body = '';
              res.setEncoding('utf8').on('data', (chunk: string) => {
                body += chunk;
              });
              res.on('end', () => {
                resolve({ status: res.statusCode ?? 0, body });
              });
            },
          );
          req.on('error', reject);
          const chunk = ' '.repeat(1024 * 1024);
          const writeMore = (left: number): void => {
            if (left === 0) req.end(']');
            else if (!req.destroyed)
              req.write(left === 11 ? `[${chunk}` : chunk, () => {
                writeMore(left - 1);
              });
          };
          writeMore(11);
        });
        expect(streamed).toEqual({ status: 413, body: JSON.stringify({ error: 'payload too large' }) });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('tokens', () => {
    it('stores only the digest of a page token and never logs a token', async () => {
      const page = slug();
      wakeFails = true; // something must be logged for the absence of tokens to mean anything
      const res = await post([pageConfigured(page, { auth_token: PAGE_TOKEN })]);
      expect(res.status).toBe(202);
      await post([pageConfigured(page, { auth_token: PAGE_TOKEN, plan: 'nope' })]);
      await post([pageConfigured(page, { auth_token: PAGE_TOKEN })], { token: 'wrong-token-of-some-length' });

      const data = await t.db.oneFirst(sql.type(z.object({ data: z.record(z.unknown()) }))`
        SELECT data FROM event_log WHERE page = ${page}`);
      expect(data).toEqual({
        title: page,
        plan: 'pro',
        custom_domain: null,
        blocked: false,
        auth_token_hash: createHash('sha256').update(PAGE_TOKEN).digest('hex'),
      });
      const raw = await t.db.oneFirst(sql.type(z.object({ n: z.number() }))`
        SELECT count(*)::int AS n FROM event_log WHERE data::text LIKE ${`%${PAGE_TOKEN}%`}`);
      expect(raw).toBe(0);

      await new Promise((resolve) => setTimeout(resolve, 10));
      const output = captured.lines.join('');
      expect(output).toContain('waking projectors failed');
      expect(output).not.toContain(PAGE_TOKEN);
      expect(output).not.toContain(TOKEN);
    });
  });

  describe('failures', () => {
    it('answers 503 when the database is unreachable', async () => {
      const proxy = await tcpProxy(new URL(t.url));
      const db = await createDb(proxy.url);
      try {
        await proxy.shut();
        const res = await request(buildApp({ db }))
          .post('/v1/events')
          .set('Authorization', `Bearer ${TOKEN}`)
          .send([pageConfigured(slug())]);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'service unavailable' });
        const ready = await request(buildApp({ db })).get('/readyz');
        expect(ready.status).toBe(503);
        expect(ready.body).toEqual({ status: 'not ready', failing: ['postgres'] });
      } finally {
        await db.end();
      }
    });

    it('answers 500 for anything unexpected, and logs it', async () => {
      const broken = {
        transaction: () => Promise.reject(new Error('something odd')),
      } as unknown as DatabasePool;
      const res = await request(buildApp({ db: broken }))
        .post('/v1/events')
        .set('Authorization', `Bearer ${TOKEN}`)
        .send([pageConfigured(slug())]);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'internal error' });
      expect(captured.lines.join('')).toContain('something odd');
    });
  });

  describe('probes', () => {
    it('answers /healthz and /readyz', async () => {
      const health = await request(app).get('/healthz');
      expect(health.status).toBe(200);
      expect(health.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(health.body).toEqual({ status: 'ok' });
      const ready = await request(app).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready' });
    });

    it('names redis when it does not answer', async () => {
      const away = redisAway();
      try {
        const res = await request(buildApp({ redis: away })).get('/readyz');
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ status: 'not ready', failing: ['redis'] });
      } finally {
        away.disconnect();
      }
    });

    it('gives up on a service that hangs after 1.5 seconds, answering within 2', async () => {
      const hanging = { ping: () => new Promise(() => undefined) } as unknown as Redis;
      const started = Date.now();
      const res = await request(buildApp({ redis: hanging }))
        .get('/readyz')
        .timeout(2_000);
      expect(res.body).toEqual({ status: 'not ready', failing: ['redis'] });
      expect(Date.now() - started).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 100);
    });
  });
});
