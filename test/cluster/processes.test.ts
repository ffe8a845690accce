// The real processes on a Redis Cluster: `serve` (public API, ingest, its subscribers and the
// BullMQ wake-ups) and `work` (BullMQ workers, scheduler, the first rebuild), configured by
// REDIS_CLUSTER_NODES alone. Events go in over HTTP and come out of the API, projected.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { freePort } from '../support/redisServer.ts';
import {
  dropRedisPrefix,
  freshDatabase,
  freshRedisPrefix,
  testClusterNodes,
  testRedis,
  type TestDatabase,
} from '../support/testEnv.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'a-cluster-ingest-token';

describe.runIf(testClusterNodes())('serve and work processes on a Redis Cluster', () => {
  let t: TestDatabase;
  const redis = testRedis();
  const prefix = freshRedisPrefix();
  const children: ChildProcess[] = [];
  let api = '';
  let operator = '';

  const start = (command: 'serve' | 'work', ports: Record<string, string>) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: t.url,
      REDIS_CLUSTER_NODES: testClusterNodes(),
      REDIS_PREFIX: prefix,
      PROJECTOR_PARTITIONS: '4',
      INGEST_TOKEN: TOKEN,
      PUBLIC_BASE_URL: 'http://status.test',
      LOG_LEVEL: 'error',
      ...ports,
    };
    delete env['REDIS_URL'];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', command], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
  };

  /** GETs `url` until `done` accepts the answer (the processes start and project meanwhile). */
  const until = async (url: string, done: (status: number, body: string) => boolean) => {
    let last = '';
    for (let tries = 0; tries < 600; tries += 1) {
      const res = await fetch(url).catch(() => null);
      if (res) {
        const body = await res.text();
        if (done(res.status, body)) return body;
        last = `${res.status} ${body}`;
      }
      await sleep(100);
    }
    throw new Error(`${url} never answered as expected; last: ${last}`);
  };

  beforeAll(async () => {
    t = await freshDatabase();
    const [port, ingestPort, probePort] = [await freePort(), await freePort(), await freePort()];
    api = `http://127.0.0.1:${port}`;
    operator = `http://127.0.0.1:${ingestPort}`;
    start('serve', { PORT: String(port), HOST: '127.0.0.1', INGEST_PORT: String(ingestPort) });
    start('work', { WORKER_PROBE_PORT: String(probePort) });
    await until(`${operator}/readyz`, (status) => status === 200);
  });
  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) resolve(null);
            else child.once('exit', resolve).kill('SIGTERM');
          }),
      ),
    );
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
    await t.close();
  });

  it('ingests over HTTP, projects on the workers and serves the figures', async () => {
    const events = [
      pageConfigured('acme'),
      monitorConfigured('acme', 1, { name: 'API' }),
      {
        type: 'incident.opened',
        page: 'acme',
        at: '2026-11-02T08:00:00Z',
        data: { incident_id: 'i1', title: 'API errors', message: 'Looking' },
      },
      check('acme', 1, new Date(Date.now() - 120_000).toISOString(), 'up', 120),
      check('acme', 1, new Date(Date.now() - 60_000).toISOString(), 'down', 300),
    ];
    const res = await fetch(`${operator}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    expect(res.status).toBe(202);

    const charts = JSON.parse(
      await until(
        `${api}/api/status/acme/charts`,
        (status, body) => status === 200 && body.includes('"down"'),
      ),
    ) as { monitors: { id: number; name: string; state: string }[] };
    expect(charts.monitors.map(({ id, name, state }) => ({ id, name, state }))).toEqual([
      { id: 1, name: 'API', state: 'down' },
    ]);
    const incidents = JSON.parse(
      await until(`${api}/api/status-pages/acme/incidents`, (status) => status === 200),
    ) as { incidents: { id: string }[]; total_items: number };
    expect(incidents).toMatchObject({ total_items: 1, incidents: [{ id: 'i1' }] });
    const status = JSON.parse(
      await until(
        `${operator}/v1/projection-status`,
        (code, body) => code === 200 && body.includes('"lag_events":0'),
      ),
    ) as Record<string, unknown>;
    expect(status).toMatchObject({ log_position: '5', lag_events: 0, quarantined_pages: [] });
  });
});
