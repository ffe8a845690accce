// `npm run bench -- --only notify`: 1,000 webhook subscribers of one page, each incident appended
// to the log and delivered by the real worker process (its notifier, the real webhook sender) to a
// local HTTPS receiver: append → received p50/p99 over every delivery; then a rebuild of the read
// models and a replay of the whole log by the notifier, and the webhooks they send (must be 0).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'slonik';
import { z } from 'zod';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { createSubscriber } from '../src/notify/operator/subscriberStore.ts';
import { createProjectorQueue, createWake } from '../src/projector/queue.ts';
import { createActiveVersionReader } from '../src/store/control/activeVersionReader.ts';
import { rebuild } from '../src/projector/rebuild.ts';
import { makeTestCertificates, startLocalReceiver } from '../test/support/localHttps.ts';
import { projectorDeps, startBenchEnv } from './benchEnv.ts';
import { startWorker, stopAll } from './children.ts';
import type { Figure } from './report.ts';

const PAGE = 'notify-bench';
const SUBSCRIBERS = 1_000;
const INCIDENTS = 5;

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export const runNotifyBench = async (format: (figures: readonly Figure[]) => string): Promise<void> => {
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const env = await startBenchEnv();
  const certs = makeTestCertificates();
  const caFile = join(mkdtempSync(join(tmpdir(), 'notify-bench-')), 'ca.pem');
  writeFileSync(caFile, certs.ca);
  const arrivals: number[] = [];
  const receiver = await startLocalReceiver(certs, (_req, res) => {
    arrivals.push(Date.now());
    res.writeHead(204).end();
  });
  const queue = createProjectorQueue(env.redis, env.prefix);
  try {
    const at = () => new Date().toISOString();
    await appendEvents(
      env.db,
      [{ type: 'page.configured', page: PAGE, at: at(), data: { title: 'Bench', plan: 'growth' } }],
      {
        now: new Date(),
      },
    );
    for (let i = 0; i < SUBSCRIBERS; i++)
      await createSubscriber(env.db, PAGE, {
        channel: 'webhook',
        url: receiver.url(`/hook/${String(i)}`),
        components: [],
        monitor_states: false,
        format: 'native',
      });
    await startWorker({
      REDIS_URL: env.redisUrl,
      REDIS_PREFIX: env.prefix,
      DATABASE_URL: env.url,
      PROJECTOR_PARTITIONS: '2',
      NOTIFY_ALLOW_HOSTS: 'localhost',
      NODE_EXTRA_CA_CERTS: caFile,
    });
    // Each append wakes the projectors as the ingest does; the worker's projector wakes its notifier.
    const wake = createWake(queue, createActiveVersionReader(env.redis, env.prefix));
    const latencies: number[] = [];
    for (let n = 1; n <= INCIDENTS; n++) {
      const before = arrivals.length;
      const appended = Date.now();
      await appendEvents(
        env.db,
        [
          {
            type: 'incident.opened',
            page: PAGE,
            at: at(),
            data: { incident_id: `bench-${String(n)}`, title: 'Bench', message: 'bench' },
          },
        ],
        { now: new Date() },
      );
      await wake([PAGE]);
      while (arrivals.length < before + SUBSCRIBERS) {
        if (Date.now() - appended > 120_000) throw new Error('webhooks not all received after 120 s');
        await sleep(10);
      }
      latencies.push(...arrivals.slice(before, before + SUBSCRIBERS).map((t) => t - appended));
      log(`incident ${String(n)}: ${String(SUBSCRIBERS)} webhooks received`);
    }
    const delivered = arrivals.length;
    await rebuild(projectorDeps(env), { prefix: env.prefix, partitions: 2, graceMs: 0 });
    await env.db.query(sql.unsafe`UPDATE notifier_checkpoints SET checkpoint = '0:0'`);
    const head = await env.db.oneFirst(
      sql.type(z.object({ p: z.string() }))`SELECT max(position)::text AS p FROM event_log`,
    );
    const started = Date.now();
    for (;;) {
      const caught = await env.db.oneFirst(sql.type(z.object({ ok: z.boolean() }))`
        SELECT split_part(checkpoint, ':', 2)::bigint >= ${head}::bigint AS ok FROM notifier_checkpoints`);
      if (caught) break;
      if (Date.now() - started > 120_000) throw new Error('the replay did not finish in 120 s');
      await sleep(50);
    }
    await sleep(2_000); // a dispatcher round for anything the replay might have planned
    const resent = arrivals.length - delivered;
    latencies.sort((a, b) => a - b);
    const figure = (name: string, value: number, unit: string, target?: Figure['target']): Figure => ({
      section: 'notify',
      name,
      unit,
      value,
      baseline: null,
      ratio: null,
      ...(target ? { target } : {}),
    });
    const p99 = quantile(latencies, 0.99);
    console.log(
      [
        `npm run bench -- --only notify: ${String(SUBSCRIBERS)} webhook subscribers, ${String(INCIDENTS)} incidents`,
        format([
          figure('append → webhook received, p50', quantile(latencies, 0.5), 'ms'),
          figure('append → webhook received, p99', p99, 'ms', { text: '≤ 2000 ms', met: p99 <= 2000 }),
          figure('webhooks sent by a rebuild and a replay of the whole log', resent, 'count', {
            text: '0',
            met: resent === 0,
          }),
        ]),
      ].join('\n'),
    );
  } finally {
    await queue.close().catch(() => undefined);
    await stopAll();
    await receiver.close();
    await env.close();
  }
};
