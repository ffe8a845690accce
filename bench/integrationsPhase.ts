// `npm run bench -- --only integrations`: one Alertmanager notification of 1,000 firing alerts for
// a page of 100 monitors (10 alerts each), posted to the operator listener: the time until it is
// accepted (committed) and until the page's charts show every monitor down (the real worker
// process projecting); the same notification again (all duplicates); then its resolution, until
// every monitor shows up again. Runs alone in an environment of its own.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { buildOperatorApp } from '../src/operatorApp.ts';
import { createProjectorQueue, createWake } from '../src/projector/queue.ts';
import { rebuild } from '../src/projector/rebuild.ts';
import { createActiveVersionReader } from '../src/store/control/activeVersionReader.ts';
import { projectorDeps, startBenchEnv } from './benchEnv.ts';
import { startWorker, stopAll } from './children.ts';
import type { Figure } from './report.ts';

const PAGE = 'alerts-bench';
const MONITORS = 100;
const ALERTS = 1_000;
const FIRST_ID = 70_001;
const TOKEN = 'bench-ingest-token-0123456789';

const listen = async (app: ReturnType<typeof buildApp>): Promise<Server> => {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return server;
};
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const notification = (startsMs: number, endsMs: number | null) => ({
  version: '4',
  groupKey: '{}:{alertname="BenchDown"}',
  truncatedAlerts: 0,
  status: endsMs === null ? 'firing' : 'resolved',
  receiver: 'statuspage',
  groupLabels: { alertname: 'BenchDown' },
  commonLabels: { alertname: 'BenchDown' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager.bench',
  alerts: Array.from({ length: ALERTS }, (_, i) => ({
    status: endsMs === null ? 'firing' : 'resolved',
    labels: {
      alertname: 'BenchDown',
      instance: `host-${i}`,
      statuspage_monitor: String(FIRST_ID + (i % MONITORS)),
    },
    annotations: { summary: `host-${i} is down` },
    startsAt: new Date(startsMs + i).toISOString(),
    endsAt: endsMs === null ? '0001-01-01T00:00:00Z' : new Date(endsMs + i).toISOString(),
    generatorURL: 'http://prometheus.bench/graph',
    fingerprint: `fp${String(i).padStart(6, '0')}`,
  })),
});

export const runIntegrationsBench = async (format: (figures: readonly Figure[]) => string): Promise<void> => {
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const env = await startBenchEnv();
  const queueRedis = new Redis(env.redisUrl, { maxRetriesPerRequest: null });
  const queue = createProjectorQueue(queueRedis, env.prefix);
  const servers: Server[] = [];
  try {
    const nowMs = Date.now();
    await appendEvents(
      env.db,
      [
        {
          type: 'page.configured',
          page: PAGE,
          at: new Date(nowMs - 3_600_000).toISOString(),
          data: { title: 'Alerts', plan: 'growth' },
        },
        ...Array.from({ length: MONITORS }, (_, m) => ({
          type: 'monitor.configured',
          page: PAGE,
          at: new Date(nowMs - 3_600_000).toISOString(),
          data: { monitor_id: FIRST_ID + m, name: `Service ${m + 1}` },
        })),
      ],
      { now: new Date() },
    );
    await rebuild(projectorDeps(env), { prefix: env.prefix, partitions: 2, graceMs: 0 });
    await startWorker({
      REDIS_URL: env.redisUrl,
      REDIS_PREFIX: env.prefix,
      DATABASE_URL: env.url,
      PROJECTOR_PARTITIONS: '2',
    });
    const silent = pino({ level: 'silent' });
    const wake = createWake(queue, createActiveVersionReader(env.redis, env.prefix));
    const operator = await listen(
      buildOperatorApp({
        ...{ db: env.db, redis: env.redis, prefix: env.prefix, registry: new Registry(), log: silent },
        clock: () => new Date(),
        ingest: { token: TOKEN, wake },
      }),
    );
    const api = await listen(
      buildApp({ redis: env.redis, prefix: env.prefix, config: loadConfig({}), log: silent }),
    );
    servers.push(operator, api);

    const post = async (body: object) => {
      const res = await fetch(`${urlOf(operator)}/v1/integrations/alertmanager/${PAGE}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`notification answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { accepted: number; duplicates: number };
    };
    const allStates = async (state: string) => {
      const res = await fetch(`${urlOf(api)}/api/status/${PAGE}/charts`);
      if (res.status !== 200) return false;
      const { monitors } = (await res.json()) as { monitors: { state: string }[] };
      return monitors.length === MONITORS && monitors.every((m) => m.state === state);
    };
    const timed = async (body: object, state: string | null) => {
      const started = performance.now();
      const answer = await post(body);
      const accepted = performance.now() - started;
      if (state === null) return { answer, accepted, visible: 0 };
      while (!(await allStates(state))) {
        if (performance.now() - started > 120_000) throw new Error(`monitors not ${state} after 120 s`);
        await sleep(20);
      }
      return { answer, accepted, visible: performance.now() - started };
    };

    const startsMs = Date.now() - 120_000;
    log(`posting ${ALERTS} firing alerts for ${MONITORS} monitors…`);
    const firing = await timed(notification(startsMs, null), 'down');
    const repeat = await timed(notification(startsMs, null), null);
    log('posting their resolution…');
    const resolved = await timed(notification(startsMs, Date.now() - 60_000), 'up');
    const figure = (name: string, value: number, detail: Record<string, number | string>): Figure => ({
      section: 'integrations',
      name,
      unit: 'ms',
      value,
      baseline: null,
      ratio: null,
      detail,
    });
    const figures = [
      figure('1,000 firing alerts: accepted', firing.accepted, { accepted: firing.answer.accepted }),
      figure('1,000 firing alerts: every monitor down on the page', firing.visible, {}),
      figure('the same notification again (repeat): accepted', repeat.accepted, {
        duplicates: repeat.answer.duplicates,
      }),
      figure('1,000 resolved alerts: accepted', resolved.accepted, { accepted: resolved.answer.accepted }),
      figure('1,000 resolved alerts: every monitor up on the page', resolved.visible, {}),
    ];
    console.log(
      [
        `npm run bench -- --only integrations: ${ALERTS} alerts, ${MONITORS} monitors, one page`,
        format(figures),
      ].join('\n'),
    );
    log(
      `answers: firing ${JSON.stringify(firing.answer)}, repeat ${JSON.stringify(repeat.answer)}, resolved ${JSON.stringify(resolved.answer)}`,
    );
  } finally {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await stopAll();
    await queue.close().catch(() => undefined);
    queueRedis.disconnect();
    await env.close();
  }
};
