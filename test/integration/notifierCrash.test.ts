// The notifier inside real `npm run work` processes: one SIGKILLed after a webhook went out but
// before the attempt was recorded leaves a retry of the same message (same webhook-id); a flushed
// Redis, a read-model rebuild (`npm run rebuild`) and a restart send nothing new.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { killChild as kill, waitFor } from '../support/childProcesses.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import {
  makeTestCertificates,
  startLocalReceiver,
  type LocalReceiver,
  type TestCertificates,
} from '../support/localHttps.ts';
import {
  appendNow,
  dispatchAll,
  makeDue,
  outbox,
  subscribersApp,
  testSenders,
} from '../support/notifyFixture.ts';
import {
  dropRedisPrefix,
  freshDatabase,
  freshRedisPrefix,
  testRedis,
  type TestDatabase,
} from '../support/testEnv.ts';
import { INGEST_TOKEN } from '../support/testServers.ts';
import { spawnWorker } from '../support/workerFleet.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let t: TestDatabase;
let redis: RedisClient;
let prefix: string;
let receiver: LocalReceiver;
let certs: TestCertificates;
let env: Record<string, string>;
/** Set: requests are held unanswered (the worker is killed while it waits). */
const held: ServerResponse[] = [];
let hold = true;

beforeAll(async () => {
  t = await freshDatabase();
  redis = testRedis();
  prefix = freshRedisPrefix();
  certs = makeTestCertificates();
  const caFile = join(mkdtempSync(join(tmpdir(), 'notify-ca-')), 'ca.pem');
  writeFileSync(caFile, certs.ca);
  env = { NOTIFY_ALLOW_HOSTS: 'localhost', NODE_EXTRA_CA_CERTS: caFile };
  receiver = await startLocalReceiver(certs, (_req, res) => {
    if (hold) held.push(res);
    else res.writeHead(204).end();
  });
  const at = new Date().toISOString();
  await appendNow(t, [pageConfigured('acme', {}, at), monitorConfigured('acme', 1, { name: 'API' }, at)]);
});
afterAll(async () => {
  await receiver.close();
  await dropRedisPrefix(redis, prefix);
  redis.disconnect();
  await t.close();
});

const runRebuild = () =>
  new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'rebuild'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        REDIS_URL: inject('redisUrl'),
        REDIS_PREFIX: prefix,
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (code) => resolve(code));
  });

describe('the notifier in worker processes', () => {
  it('a worker killed after sending leaves one retry of the same message; Redis flushed, a rebuild and a restart send nothing new', async () => {
    const created = await request(subscribersApp(t))
      .post('/v1/pages/acme/subscribers')
      .set({ Authorization: `Bearer ${INGEST_TOKEN}` })
      .send({ channel: 'webhook', url: receiver.url('/hook') });
    const subscriber = (created.body as { id: string }).id;
    const first = spawnWorker(t.url, prefix, env);
    await appendNow(t, [
      {
        type: 'incident.opened',
        page: 'acme',
        at: new Date().toISOString(),
        data: { incident_id: 'inc-1', title: 'API down', message: 'Looking', components: ['API'] },
      },
    ]);
    await waitFor('the first delivery', () => receiver.requests.length === 1);
    await kill(first, 'SIGKILL');
    expect((await outbox(t)).map((r) => [r.subscriber_id, r.state, r.attempts])).toEqual([
      [subscriber, 'pending', 1],
    ]);

    hold = false;
    for (const res of held) res.destroy();
    await dropRedisPrefix(redis, prefix); // Redis flushed: the notifier keeps nothing there
    await makeDue(t); // the dead worker's lease has run out
    const second = spawnWorker(t.url, prefix, env);
    await waitFor('the retry to be recorded', async () => (await outbox(t))[0]?.state === 'sent');
    const ids = receiver.requests.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);

    expect(await runRebuild()).toBe(0);
    await kill(second, 'SIGTERM');
    const third = spawnWorker(t.url, prefix, env);
    // Something new to read: once the restarted notifier has passed it, it has seen the whole log.
    await appendNow(t, [pageConfigured('other', {}, new Date().toISOString())]);
    await waitFor('the restarted notifier to read the log', async () =>
      t.db.oneFirst(sql.type(z.object({ caught: z.boolean() }))`
        SELECT split_part(checkpoint, ':', 2)::bigint >= (SELECT max(position) FROM event_log) AS caught
        FROM notifier_checkpoints`),
    );
    await dispatchAll(t, testSenders(certs)); // nothing is due: sends nothing
    await kill(third, 'SIGTERM');
    expect(receiver.requests).toHaveLength(2);
    expect((await outbox(t)).map((r) => r.state)).toEqual(['sent']);
  });
});
