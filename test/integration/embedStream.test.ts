// GET /api/embed/stream end to end: the real projector publishes each change of a page's embed,
// one subscription per API process fans it out, and each stream gets the embed status body at once
// and on every change, with ids that let a reconnection resume without a repeat.
//
// The clock is pinned at N, so revisions are exact: the first render stamps every part with N (in
// ms), each later change with the previous revision + 1. An event's id is the sum of what its body
// shows: the parts' revisions, the page's latest event, and the minute with rtm or upd.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createChangeHub, type ChangeHub } from '../../src/readModels/embed/changeHub.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { projectAll } from '../support/projectAll.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { nextStatus, openStream } from '../support/sseClient.ts';
import { clientList, isSubscriberNamed } from '../support/testEnv.ts';

const N = '2026-11-22T12:00:30Z';
const REV = Date.parse(N); // 1795348830000
const at = (iso: string) => Date.parse(iso);
/** The id of a body: head, tail (and incidents with inc=1) revisions + the latest event (+ the minute). */
const idOf = (head: number, tail: number, updated: string, extra = 0) => head + tail + at(updated) + extra;

const body = (overrides: object = {}) => ({
  page: 'acme',
  page_url: 'http://status.test/s/acme',
  overall: 'operational',
  updated: '2026-11-22T11:59:00Z',
  incidents: [],
  dns_only: false,
  ...overrides,
});
const outage = {
  overall: 'major_outage', // the only monitor is down
  updated: '2026-11-22T12:00:05Z',
  incidents: [
    {
      id: 'inc-1',
      title: 'Outage',
      state: 'investigating',
      started: '2026-11-22T12:00:00Z',
      component: 'API',
    },
  ],
};

describe('GET /api/embed/stream', () => {
  let env: ProjectorEnv;
  let hub: ChangeHub;
  let server: Server;
  let base: string;
  const append = async (...events: object[]) => projectAll(env, (await env.append(...events)).accepted);

  beforeAll(async () => {
    env = await startProjectorEnv({ now: N });
    await append(
      pageConfigured('acme', { plan: 'growth' }),
      monitorConfigured('acme', 1, { name: 'API', impact: 'major' }),
      check('acme', 1, '2026-11-22T11:59:00Z', 'up', 100),
      pageConfigured('locked', { auth_token: 'a-private-token-1234' }),
      pageConfigured('basic', { plan: 'pro' }),
      pageConfigured('freebie', { plan: 'free' }),
    );
    const log = pino({ level: 'silent' });
    hub = createChangeHub({ redis: env.redis, prefix: env.prefix, log, heartbeatMs: 200, clock: env.now });
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    server = buildApp({
      redis: env.redis,
      prefix: env.prefix,
      config,
      log,
      streams: hub,
      clock: env.now,
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await hub.close();
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  it('answers the errors of embed status before any stream starts', async () => {
    const cases: [string, number, string][] = [
      ['/api/embed/stream', 400, 'missing slug'],
      ['/api/embed/stream?slug=', 400, 'missing slug'],
      ['/api/embed/stream?slug=nobody', 404, 'not found'],
      ['/api/embed/stream?slug=locked', 401, 'auth required'],
      ['/api/embed/stream?slug=freebie', 403, 'embeds not available in your plan'],
      ['/api/embed/stream?slug=basic&inc=1', 403, 'incidents and sparklines require Growth plan or higher'],
      ['/api/embed/stream?slug=acme&rtm=241', 400, 'invalid parameters'],
      ['/api/embed/stream?slug=acme&inc=2', 400, 'invalid parameters'],
    ];
    for (const [path, status, error] of cases) {
      const res = await request(server).get(path);
      expect([path, res.status, res.body, res.headers['content-type']]).toEqual([
        path,
        status,
        { error },
        'application/json; charset=utf-8',
      ]);
    }
    const open = await openStream(`${base}/api/embed/stream?slug=locked&auth_token=a-private-token-1234`);
    expect([open.status, (await nextStatus(open)).body]).toEqual([
      200,
      {
        ...body({ page: 'locked', page_url: 'http://status.test/s/locked', updated: '2026-11-01T00:00:00Z' }),
      },
    ]);
    open.close();
  });

  it('sends the body at once, the same as embed status, to a real EventSource client', async () => {
    const status = await request(server).get('/api/embed/status?slug=acme&inc=1&rtm=2&upd=1');
    const source = new EventSource(`${base}/api/embed/stream?slug=acme&inc=1&rtm=2&upd=1`);
    try {
      const first = await new Promise<MessageEvent<string>>((resolve, reject) => {
        source.addEventListener('status', resolve);
        source.addEventListener('error', reject);
      });
      // inc=1 adds the incidents' revision, rtm and upd the minute.
      const id = idOf(REV, REV, '2026-11-22T11:59:00Z', REV + at('2026-11-22T12:00:00Z'));
      expect([first.lastEventId, JSON.parse(first.data)]).toEqual([String(id), status.body]);
      expect(status.body).toEqual({ ...body(), rtm: [100, 100], upd: [100] });
    } finally {
      source.close();
    }
  });

  it('streams each change to every stream from one subscription, and resumes without a repeat', async () => {
    const streams = await Promise.all(
      [1, 2, 3].map(() => openStream(`${base}/api/embed/stream?slug=acme&inc=1`)),
    );
    expect(streams.map((s) => [s.status, s.headers['content-type'], s.headers['cache-control']])).toEqual(
      Array(3).fill([200, 'text/event-stream', 'no-store']),
    );
    const id0 = idOf(REV, REV, '2026-11-22T11:59:00Z', REV);
    for (const stream of streams) expect(await nextStatus(stream)).toEqual({ id: id0, body: body() });
    const clients = await clientList(env.redis);
    expect(
      clients.split('\n').filter((line) => isSubscriberNamed(line, `${env.prefix}:live-streams`)),
    ).toHaveLength(1);

    await append(
      {
        type: 'incident.opened',
        page: 'acme',
        at: '2026-11-22T12:00:00Z',
        data: { incident_id: 'inc-1', title: 'Outage', message: 'Down.', components: ['API'] },
      },
      check('acme', 1, '2026-11-22T12:00:05Z', 'down', 900),
    );
    // The head and the incidents changed (revision + 1), and the latest event.
    const id1 = idOf(REV + 1, REV, '2026-11-22T12:00:05Z', REV + 1);
    for (const stream of streams) expect(await nextStatus(stream)).toEqual({ id: id1, body: body(outage) });
    for (const stream of streams) stream.close();

    // A reconnection that already has id1 gets nothing until the next change.
    const resumed = await openStream(`${base}/api/embed/stream?slug=acme&inc=1`, {
      'Last-Event-ID': String(id1),
    });
    const older = await openStream(`${base}/api/embed/stream?slug=acme&inc=1`, {
      'Last-Event-ID': String(id0),
    });
    expect(await nextStatus(older)).toEqual({ id: id1, body: body(outage) });
    await append(check('acme', 1, '2026-11-22T12:00:10Z', 'up', 120));
    const recovered = body({ updated: '2026-11-22T12:00:10Z', incidents: outage.incidents });
    const id2 = idOf(REV + 2, REV, '2026-11-22T12:00:10Z', REV + 1);
    expect(await nextStatus(resumed)).toEqual({ id: id2, body: recovered });
    expect(await nextStatus(older)).toEqual({ id: id2, body: recovered });
    resumed.close();
    older.close();
  });

  it('sends a heartbeat comment between changes', async () => {
    const stream = await openStream(`${base}/api/embed/stream?slug=acme`);
    expect((await stream.next()).kind).toBe('event');
    expect(await stream.next()).toEqual({ kind: 'comment', text: 'heartbeat' });
    stream.close();
  });

  // Last: it changes the page's plan.
  it('ends the streams of a page that loses access, whose reconnection gets the error', async () => {
    const stream = await openStream(`${base}/api/embed/stream?slug=acme&inc=1`);
    await nextStatus(stream);
    await append(pageConfigured('acme', { plan: 'free' }, '2026-11-22T12:00:20Z'));
    await stream.ended;
    const again = await request(server).get('/api/embed/stream?slug=acme&inc=1');
    expect([again.status, again.body]).toEqual([403, { error: 'embeds not available in your plan' }]);
  });
});
