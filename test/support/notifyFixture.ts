// A notifier over a fresh database: the operator's subscriber routes, the real HTTP senders
// delivering to a local HTTPS receiver, and helpers to run its planning and dispatch steps.
import express from 'express';
import { pino } from 'pino';
import { sql } from 'slonik';
import { z } from 'zod';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { errorHandler, notFoundHandler } from '../../src/http/errors.ts';
import { parseAllowHosts } from '../../src/notify/delivery/allowHosts.ts';
import { dispatchDue } from '../../src/notify/dispatch.ts';
import { notifyBatch } from '../../src/notify/notifyBatch.ts';
import type { NotifyMetrics } from '../../src/notify/notifyMetrics.ts';
import { subscriberRoutes } from '../../src/notify/operator/subscriberRoutes.ts';
import type { Senders } from '../../src/notify/senders.ts';
import { httpSenders } from '../../src/notify/senders/httpSenders.ts';
import type { TestCertificates } from './localHttps.ts';
import { waitForLogHorizon } from './logHorizon.ts';
import type { TestDatabase } from './testEnv.ts';
import { INGEST_TOKEN } from './testServers.ts';

export const silent = pino({ level: 'silent' });
export const urls = { baseUrl: 'https://status.example.com', pageUrlTemplate: '{base_url}/s/{slug}' };

export const subscribersApp = (t: TestDatabase): express.Express =>
  express()
    .use(subscriberRoutes({ db: t.db, ingestToken: INGEST_TOKEN, log: silent }))
    .use(notFoundHandler)
    .use(errorHandler(silent));

export const testSenders = (certs: TestCertificates): Senders => ({
  email: undefined,
  ...httpSenders({ allowHosts: parseAllowHosts('localhost'), extraCa: [certs.ca], timeoutMs: 5_000 }),
});

export const noMetrics: NotifyMetrics = { onAttempt: () => undefined };

/** Plans until the notifier has read the whole log; returns the outbox rows inserted. */
export const planAll = async (t: TestDatabase): Promise<number> => {
  await waitForLogHorizon(t.url); // another database's open transaction on the shared server hides new rows
  let planned = 0;
  for (;;) {
    // Chunks of 2 subscribers: the tests' pages have a few, so planning runs over several chunks.
    const result = await notifyBatch({
      db: t.db,
      urls,
      coalesceMs: 30_000,
      batchSize: 100,
      subscriberChunk: 2,
    });
    planned += result.planned;
    if (result.read === 0) return planned;
  }
};

/** One dispatcher call with small claims: how a fan-out larger than a claim goes out. */
export const dispatchOnce = (
  t: TestDatabase,
  senders: Senders,
  sizes: { claimLimit: number; concurrency: number },
) => dispatchDue({ db: t.db, senders, log: silent, metrics: noMetrics, ...sizes });

/** Sends everything due now; returns the rows claimed. */
export const dispatchAll = async (t: TestDatabase, senders: Senders): Promise<number> => {
  let claimed = 0;
  for (let round = await dispatchDue({ db: t.db, senders, log: silent, metrics: noMetrics }); round > 0;) {
    claimed += round;
    round = await dispatchDue({ db: t.db, senders, log: silent, metrics: noMetrics });
  }
  return claimed;
};

/** Appends events now: `at` is the append's moment, so they are news. */
export const appendNow = (t: TestDatabase, events: readonly Record<string, unknown>[]) =>
  appendEvents(t.db, events, { now: new Date() });

const OutboxRow = z.object({
  source: z.string(),
  subscriber_id: z.string(),
  message_id: z.string(),
  state: z.string(),
  attempts: z.number(),
  type: z.string(),
});

export const outbox = async (t: TestDatabase) => [
  ...(await t.db.any(sql.type(OutboxRow)`
    SELECT source, subscriber_id, message_id, state, attempts, payload->>'type' AS type
    FROM notifications ORDER BY created_at, source, subscriber_id`)),
];

/** Makes every pending row due now: the retry delay or a dead dispatcher's lease has passed. */
export const makeDue = async (t: TestDatabase): Promise<void> => {
  await t.db.query(sql.unsafe`UPDATE notifications SET due_at = now() WHERE state = 'pending'`);
};

/** Whether the notifier's checkpoint has reached the last event in the log. */
export const notifierAtHead = async (t: TestDatabase): Promise<boolean> =>
  t.db.oneFirst(sql.type(z.object({ caught: z.boolean() }))`
    SELECT coalesce(split_part(c.checkpoint, ':', 2)::bigint >= (SELECT max(position) FROM event_log), false)
      AS caught
    FROM (SELECT 1) one LEFT JOIN notifier_checkpoints c ON true`);
