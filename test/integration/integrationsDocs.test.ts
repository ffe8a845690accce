// The configurations docs/integrations.md gives users, run as they are (only addresses, tokens
// and Alertmanager's waits changed): a real Prometheus evaluates the documented rule on a real
// metric and sends to a real Alertmanager with the documented receiver, which drives the page;
// the Grafana contact point's settings deliver Grafana's documented payload; the cron line's
// curl reports a push monitor in.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { sql } from 'slonik';
import request from 'supertest';
import { parse } from 'yaml';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { startAlertmanager, type Alertmanager } from '../support/alertmanager.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { grafanaDocumented } from '../support/grafanaPayload.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { freePort } from '../support/redisServer.ts';
import { INGEST_TOKEN, appOf } from '../support/testServers.ts';

const run = promisify(execFile);
const DOC = path.join(import.meta.dirname, '../../docs/integrations.md');

/** The code block after `<!-- config: name -->` in docs/integrations.md. */
const docBlock = async (name: string): Promise<string> => {
  const doc = await readFile(DOC, 'utf8');
  const block = new RegExp(`<!-- config: ${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(doc)?.[1];
  if (block === undefined) throw new Error(`docs/integrations.md has no "${name}" block`);
  return block;
};

const until = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

let env: ProjectorEnv;
let operator: Server;
let publicApi: Server;
let metrics: Server;
let alertmanager: Alertmanager | undefined;
let prometheus: ChildProcess | undefined;
let healthy = 1;
let token: string;

const address = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const listening = async (server: Server) => {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return server;
};
const checksOf = (monitor: number) =>
  env.t.db.any(sql.type(z.object({ at: z.number(), status: z.string() }))`
    SELECT at, data->>'status' AS status FROM event_log
    WHERE type = 'check.recorded' AND data->>'monitor_id' = ${String(monitor)} ORDER BY at, position`);

beforeAll(async () => {
  env = await startProjectorEnv({ now: new Date().toISOString() });
  const at = new Date(Date.now() - 3_600_000).toISOString();
  await env.append(
    pageConfigured('acme', {}, at),
    monitorConfigured('acme', 1, { name: 'API' }, at),
    monitorConfigured('acme', 21, { name: 'us-1' }, at),
    monitorConfigured('acme', 22, { name: 'eu-1' }, at),
    monitorConfigured('acme', 40, { name: 'Nightly backup', type: 'push', push_interval_s: 86_400 }, at),
  );
  const log = pino({ level: 'silent' });
  const clock = () => new Date();
  const app = buildOperatorApp({
    ...{ db: env.t.db, redis: env.redis, prefix: env.prefix, registry: new Registry(), log, clock },
    ingest: { token: INGEST_TOKEN, wake: () => Promise.resolve(), publicBaseUrl: URLS.baseUrl },
  });
  operator = await listening(app.listen(0, '127.0.0.1'));
  const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl });
  const push = { db: env.t.db, wake: () => Promise.resolve(), clock, log };
  publicApi = await listening(appOf(env, config, { push }).listen(0, '127.0.0.1'));
  metrics = await listening(
    createServer((_req, res) => res.end(`# TYPE api_healthy gauge\napi_healthy ${healthy}\n`)).listen(
      0,
      '127.0.0.1',
    ),
  );
  const created = await request(operator)
    .post('/v1/pages/acme/integration-tokens')
    .set('Authorization', `Bearer ${INGEST_TOKEN}`);
  token = (created.body as { token: string }).token;
});
afterAll(async () => {
  prometheus?.kill('SIGKILL');
  await alertmanager?.stop();
  for (const server of [operator, publicApi, metrics]) await new Promise((resolve) => server.close(resolve));
  await env.close();
});

describe('docs/integrations.md', () => {
  it('the Prometheus rule fires through the Alertmanager receiver: the page shows its interval', async () => {
    const receiver = (await docBlock('alertmanager'))
      .replace('http://statuspage-operator:3001', address(operator))
      .replace('spi_replace_with_the_integration_token', token)
      .replace('group_wait: 30s', 'group_wait: 1s')
      .replace('group_interval: 5m', 'group_interval: 1s');
    alertmanager = await startAlertmanager(receiver);
    const promPort = await freePort();
    await writeFile(path.join(alertmanager.dir, 'rules.yml'), await docBlock('prometheus-rule'));
    await writeFile(
      path.join(alertmanager.dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'rule_files: [rules.yml]',
        `alerting: { alertmanagers: [{ static_configs: [{ targets: ['${alertmanager.url.slice(7)}'] }] }] }`,
        `scrape_configs: [{ job_name: api, static_configs: [{ targets: ['${address(metrics).slice(7)}'] }] }]`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${path.join(alertmanager.dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(alertmanager.dir, 'prometheus')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        '--log.level=error',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const query = async (promql: string) =>
      (
        (await (await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${promql}`)).json()) as {
          data: { result: unknown[] };
        }
      ).data.result;
    await until(
      'the metric scraped',
      () => query('api_healthy').catch(() => []),
      (r) => r.length === 1,
    );

    healthy = 0;
    const firing = await until(
      'the down check',
      () => checksOf(1),
      (checks) => checks.length === 1,
    );
    const alerts = (await (await fetch(`http://127.0.0.1:${promPort}/api/v1/alerts`)).json()) as {
      data: { alerts: { activeAt: string; labels: Record<string, string> }[] };
    };
    const activeAt = Date.parse(alerts.data.alerts[0]!.activeAt);
    expect(firing).toEqual([{ at: activeAt, status: 'down' }]);

    healthy = 1;
    const resolved = await until(
      'the up check',
      () => checksOf(1),
      (checks) => checks.length === 2,
    );
    expect(resolved[1]!.status).toBe('up');
    const [start, end] = [resolved[0]!.at, resolved[1]!.at];
    env.setNow(Date.now());
    await env.project();
    const availability = await request(publicApi).get(
      '/api/status-pages/acme/monitors/1/availability?period=24h',
    );
    expect((availability.body as { availability: object }).availability).toMatchObject({
      downtime_seconds: Math.floor((end - start) / 1000),
      incident_count: 1,
    });
  });

  it('the Grafana contact point delivers Grafana’s payload to the page', async () => {
    const { contactPoints } = parse(await docBlock('grafana-contact-point')) as {
      contactPoints: { receivers: { type: string; settings: Record<string, string> }[] }[];
    };
    const { type, settings } = contactPoints[0]!.receivers[0]!;
    expect(type).toBe('webhook');
    const url = new URL(settings['url']!.replace('http://statuspage-operator:3001', address(operator)));
    const credentials = settings['authorization_credentials']!.replace(
      'spi_replace_with_the_integration_token',
      token,
    );
    const res = await fetch(url, {
      method: String(settings['httpMethod']),
      headers: {
        Authorization: `${settings['authorization_scheme']} ${credentials}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(grafanaDocumented),
    });
    expect([res.status, await res.json()]).toEqual([200, { accepted: 2, duplicates: 0, unmapped: [] }]);
    expect(await checksOf(21)).toEqual([{ at: Date.parse('2021-10-12T07:51:03.157Z'), status: 'down' }]);
  });

  it('the cron line’s curl reports the push monitor in', async () => {
    const created = await request(operator)
      .post('/v1/pages/acme/monitors/40/push-token')
      .set('Authorization', `Bearer ${INGEST_TOKEN}`);
    const pushToken = (created.body as { token: string }).token;
    const line = await docBlock('cron');
    const command = line
      .slice(line.indexOf('&& ') + 3)
      .trim()
      .replace('https://status.example.com', address(publicApi))
      .replace('spp_replace_with_the_push_token', pushToken);
    const before = Date.now();
    await run('sh', ['-c', command]);
    const checks = await checksOf(40);
    expect(checks.map((c) => c.status)).toEqual(['up']);
    expect(checks[0]!.at).toBeGreaterThanOrEqual(before);
  });
});
