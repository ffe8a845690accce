// Two real worker processes (`npm run work`), each with its scheduler: a push monitor silent past
// its deadline gets its missed-heartbeat check from them, exactly once, at the deadline.
import type { ChildProcess } from 'node:child_process';
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { missedCheckId } from '../../src/integrations/missedHeartbeats.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { spawnWorker } from '../support/workerFleet.ts';
import {
  dropRedisPrefix,
  freshDatabase,
  freshRedisPrefix,
  testRedis,
  type TestDatabase,
} from '../support/testEnv.ts';

let t: TestDatabase;
const prefix = freshRedisPrefix();
const redis = testRedis();
const workers: ChildProcess[] = [];

const startWorker = () => {
  workers.push(spawnWorker(t.url, prefix));
};

beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null || w.signalCode !== null) resolve();
          else w.once('exit', () => resolve()).kill('SIGTERM');
        }),
    ),
  );
  await dropRedisPrefix(redis, prefix);
  redis.disconnect();
  await t.close();
});

it('appends the missed check once, at the deadline, with two schedulers running', async () => {
  // The last check 2 minutes ago; interval 30 s + grace 30 s: the deadline was a minute ago.
  const lastMs = Math.floor(Date.now() / 1000) * 1000 - 120_000;
  const at = new Date(lastMs - 60_000).toISOString();
  await appendEvents(
    t.db,
    [
      pageConfigured('beat', {}, at),
      monitorConfigured('beat', 5, { name: 'Cron', type: 'push', push_interval_s: 30 }, at),
      check('beat', 5, new Date(lastMs).toISOString(), 'up', 0),
    ],
    { now: new Date() },
  );
  startWorker();
  startWorker();
  const missed = () =>
    t.db.any(sql.type(z.object({ event_id: z.string().nullable(), at: z.number(), status: z.string() }))`
      SELECT event_id, at, data->>'status' AS status FROM event_log
      WHERE type = 'check.recorded' AND event_id LIKE 'push-missed-%'`);
  const deadline = Date.now() + 45_000;
  while ((await missed()).length === 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 250));
  // Both schedulers have ticked at least once more (every 10 s) after the first append.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  expect(await missed()).toEqual([
    { event_id: missedCheckId(5, lastMs + 60_000), at: lastMs + 60_000, status: 'down' },
  ]);
});
