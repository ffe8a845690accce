// A real `npm run work` process SIGKILLed between planning and sending: its notifier committed the
// outbox rows, nothing was sent. The next worker sends each message exactly once, under the id it
// was planned with, and does not plan the event again.
//
// The order is made deterministic by the product's own settings, no fault and no lock: the first
// worker has no mail transport (no MAIL_URL), so it plans the email subscribers' rows and cannot
// claim them (rows of a channel a process cannot send on wait for one that can). It is SIGKILLed
// once its rows are committed; the next worker has MAIL_URL and sends them.
import type { ChildProcess } from 'node:child_process';
import { simpleParser } from 'mailparser';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { confirmSubscription, signUp } from '../../src/notify/email/subscriberStore.ts';
import { killChild, waitFor } from '../support/childProcesses.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { appendNow, notifierAtHead, outbox } from '../support/notifyFixture.ts';
import { startSmtp, type TestSmtp } from '../support/smtpServer.ts';
import {
  dropRedisPrefix,
  freshDatabase,
  freshRedisPrefix,
  testRedis,
  type TestDatabase,
} from '../support/testEnv.ts';
import { spawnWorker } from '../support/workerFleet.ts';

let t: TestDatabase;
let redis: RedisClient;
let prefix: string;
let smtp: TestSmtp;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  t = await freshDatabase();
  redis = testRedis();
  prefix = freshRedisPrefix();
  smtp = await startSmtp();
  const at = new Date().toISOString();
  await appendNow(t, [
    pageConfigured('acme', {}, at),
    monitorConfigured('acme', 1, { name: 'API' }, at),
    monitorConfigured('acme', 2, { name: 'Web' }, at),
  ]);
});
afterEach(async () => {
  await Promise.all(workers.map((worker) => killChild(worker, 'SIGKILL')));
});
afterAll(async () => {
  await smtp.close();
  await dropRedisPrefix(redis, prefix);
  redis.disconnect();
  await t.close();
});

const subscribe = async (email: string, components: string[]) => {
  const { id } = await signUp(t.db, { page: 'acme', email, components });
  await confirmSubscription(t.db, id, 'acme');
  return id;
};
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
    const everything = await subscribe('everything@example.org', []);
    const api = await subscribe('api@example.org', ['API']);
    await subscribe('web@example.org', ['Web']); // out of the incident's scope: no row, no message
    await appendNow(t, [
      {
        type: 'incident.opened',
        page: 'acme',
        at: new Date().toISOString(),
        data: { incident_id: 'inc-1', title: 'API down', message: 'Looking', components: ['API'] },
      },
    ]);
    const planner = spawnWorker(t.url, prefix, {});
    workers.push(planner);
    await waitFor('the worker to plan', async () => (await rowCount()) === 2 && (await notifierAtHead(t)));
    await killChild(planner, 'SIGKILL');
    // Planned, committed, never claimed and never sent.
    const planned = bySubscriber(await outbox(t));
    expect(planned.map((row) => [row.subscriber_id, row.state, row.attempts, row.type])).toEqual(
      bySubscriber([
        { subscriber_id: everything, state: 'pending', attempts: 0, type: 'incident.opened' },
        { subscriber_id: api, state: 'pending', attempts: 0, type: 'incident.opened' },
      ]).map((row) => [row.subscriber_id, row.state, row.attempts, row.type]),
    );
    expect(smtp.received).toHaveLength(0);

    workers.push(
      spawnWorker(t.url, prefix, { MAIL_URL: smtp.url, MAIL_FROM: 'Acme Status <status@mail.example.com>' }),
    );
    await waitFor('both messages sent', async () => (await outbox(t)).every((row) => row.state === 'sent'));
    // Something new to read: once the new notifier has passed it, it has seen the whole log and
    // would have planned the incident again by now, were it ever to.
    await appendNow(t, [pageConfigured('other', {}, new Date().toISOString())]);
    await waitFor('the new notifier to reach the head of the log', () => notifierAtHead(t));

    const messageOf = new Map(planned.map((row) => [row.subscriber_id, row.message_id]));
    const arrived = await Promise.all(
      smtp.received.map(async (mail) => [mail.to.join(), (await simpleParser(mail.raw)).messageId]),
    );
    expect(arrived.sort()).toEqual([
      ['api@example.org', `<${String(messageOf.get(api))}@mail.example.com>`],
      ['everything@example.org', `<${String(messageOf.get(everything))}@mail.example.com>`],
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
