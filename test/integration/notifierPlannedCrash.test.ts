// A real `npm run work` process SIGKILLed between planning and sending: its notifier committed the
// outbox rows, nothing was sent. The next worker sends each message exactly once, under the id it
// was planned with, and does not plan the event again.
//
// The order is made deterministic with locks only the test takes, no fault in the product:
//  1. Before the worker starts, transaction A takes `subscriber_secrets` ACCESS EXCLUSIVE. Only the
//     dispatcher's claim reads that table (for the signing secrets); planning never does. So the
//     worker plans and commits its rows, while every claim waits on A before it locks a row.
//  2. Once the rows are visible, transaction B locks them FOR UPDATE. The claim that waits on A
//     would otherwise go on after A: a killed process's backend finishes the statement it is in.
//  3. SIGKILL the worker, commit A (the waiting claim, if any, runs and SKIP LOCKED skips B's
//     rows), wait until every backend of the killed worker has gone, then commit B.
// Were the claim ever to stop reading `subscriber_secrets`, the dispatcher could send before the
// kill, and the assertions that nothing was received and no attempt was counted would fail.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { killChild, waitFor } from '../support/childProcesses.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { makeTestCertificates, startLocalReceiver, type LocalReceiver } from '../support/localHttps.ts';
import { waitForLogHorizon } from '../support/logHorizon.ts';
import { appendNow, notifierAtHead, outbox, subscribersApp } from '../support/notifyFixture.ts';
import {
  dropRedisPrefix,
  freshDatabase,
  freshRedisPrefix,
  testRedis,
  type TestDatabase,
} from '../support/testEnv.ts';
import { INGEST_TOKEN } from '../support/testServers.ts';
import { spawnWorker } from '../support/workerFleet.ts';

/** The killed worker's connections carry this name, so the test can wait until they are gone. */
const KILLED_WORKER = 'notifier-planned-crash';

let t: TestDatabase;
let redis: RedisClient;
let prefix: string;
let receiver: LocalReceiver;
let env: Record<string, string>;
const workers: ChildProcess[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  t = await freshDatabase();
  redis = testRedis();
  prefix = freshRedisPrefix();
  const certs = makeTestCertificates();
  const caFile = join(mkdtempSync(join(tmpdir(), 'notify-ca-')), 'ca.pem');
  writeFileSync(caFile, certs.ca);
  env = { NOTIFY_ALLOW_HOSTS: 'localhost', NODE_EXTRA_CA_CERTS: caFile };
  receiver = await startLocalReceiver(certs, (_req, res) => res.writeHead(204).end());
  const at = new Date().toISOString();
  await appendNow(t, [
    pageConfigured('acme', {}, at),
    monitorConfigured('acme', 1, { name: 'API' }, at),
    monitorConfigured('acme', 2, { name: 'Web' }, at),
  ]);
});
afterEach(async () => {
  await Promise.all(workers.map((worker) => killChild(worker, 'SIGKILL')));
  await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
});
afterAll(async () => {
  await receiver.close();
  await dropRedisPrefix(redis, prefix);
  redis.disconnect();
  await t.close();
});

const connect = async () => {
  const client = new pg.Client({ connectionString: t.url });
  clients.push(client);
  await client.connect();
  return client;
};
const subscribe = async (path: string, components: string[]) => {
  const created = await request(subscribersApp(t))
    .post('/v1/pages/acme/subscribers')
    .set({ Authorization: `Bearer ${INGEST_TOKEN}` })
    .send({ channel: 'webhook', url: receiver.url(path), components });
  return (created.body as { id: string }).id;
};
const backendsOf = (applicationName: string) =>
  t.db.oneFirst(sql.type(z.object({ n: z.number() }))`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${applicationName}`);
/** In the code-point order of the ids (the database's collation may order them otherwise). */
const bySubscriber = <T extends { subscriber_id: string }>(rows: readonly T[]): T[] =>
  [...rows].sort((x, y) =>
    x.subscriber_id < y.subscriber_id ? -1 : x.subscriber_id > y.subscriber_id ? 1 : 0,
  );
const rowCount = () =>
  t.db.oneFirst(sql.type(z.object({ n: z.number() }))`
  SELECT count(*)::int AS n FROM notifications`);

describe('a worker killed between planning and sending', () => {
  it('leaves planned rows that the next worker sends once each, without planning again', async () => {
    const everything = await subscribe('/hook/everything', []);
    const api = await subscribe('/hook/api', ['API']);
    await subscribe('/hook/web', ['Web']); // out of the incident's scope: no row, no message

    await appendNow(t, [
      {
        type: 'incident.opened',
        page: 'acme',
        at: new Date().toISOString(),
        data: { incident_id: 'inc-1', title: 'API down', message: 'Looking', components: ['API'] },
      },
    ]);
    // A's lock gives it a transaction id, and the log is read only below the oldest one running:
    // the event goes in first, then the lock, then the worker that plans it.
    await waitForLogHorizon(t.url);
    const a = await connect();
    await a.query('BEGIN');
    await a.query('LOCK TABLE subscriber_secrets IN ACCESS EXCLUSIVE MODE');
    const planner = spawnWorker(t.url, prefix, { ...env, PGAPPNAME: KILLED_WORKER });
    workers.push(planner);
    await waitFor('the worker to plan', async () => (await rowCount()) === 2);
    const b = await connect();
    await b.query('BEGIN');
    const locked = await b.query<{ subscriber_id: string }>(
      'SELECT subscriber_id FROM notifications FOR UPDATE',
    );
    expect(locked.rows.map((row) => row.subscriber_id).sort()).toEqual([api, everything].sort());

    await killChild(planner, 'SIGKILL');
    await a.query('COMMIT');
    await waitFor(
      'the killed worker to leave the database',
      async () => (await backendsOf(KILLED_WORKER)) === 0,
    );
    await b.query('COMMIT');
    // Planned, committed, never claimed and never sent.
    const planned = bySubscriber(await outbox(t));
    expect(planned.map((row) => [row.subscriber_id, row.state, row.attempts, row.type])).toEqual(
      bySubscriber([
        { subscriber_id: everything, state: 'pending', attempts: 0, type: 'incident.opened' },
        { subscriber_id: api, state: 'pending', attempts: 0, type: 'incident.opened' },
      ]).map((row) => [row.subscriber_id, row.state, row.attempts, row.type]),
    );
    expect(receiver.requests).toHaveLength(0);
    expect(await notifierAtHead(t)).toBe(true);

    workers.push(spawnWorker(t.url, prefix, env));
    await waitFor('both messages sent', async () => (await outbox(t)).every((row) => row.state === 'sent'));
    // Something new to read: once the new notifier has passed it, it has seen the whole log and
    // would have planned the incident again by now, were it ever to.
    await appendNow(t, [pageConfigured('other', {}, new Date().toISOString())]);
    await waitFor('the new notifier to reach the head of the log', () => notifierAtHead(t));

    const messageOf = new Map(planned.map((row) => [row.subscriber_id, row.message_id]));
    expect(receiver.requests.map((r) => [r.path, r.headers['webhook-id']]).sort()).toEqual([
      ['/hook/api', messageOf.get(api)],
      ['/hook/everything', messageOf.get(everything)],
    ]);
    expect(await rowCount()).toBe(2);
    expect(
      bySubscriber(await outbox(t)).map((row) => [
        row.subscriber_id,
        row.message_id,
        row.state,
        row.attempts,
      ]),
    ).toEqual(planned.map((row) => [row.subscriber_id, row.message_id, 'sent', 1]));
  });
});
