// A real Alertmanager (Debian's prometheus-alertmanager) with the webhook receiver of
// docs/integrations.md pointed at the operator listener: alerts raised, repeated and resolved
// with amtool. The page then shows the alert's interval to the second, a restarted Alertmanager
// (fresh storage, the same alert sent again) appends nothing, and a rebuild answers the same.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { pino } from 'pino';
import { sql } from 'slonik';
import request from 'supertest';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { alertmanagerConfig, startAlertmanager, type Alertmanager } from '../support/alertmanager.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { INGEST_TOKEN, getOk, listenApi } from '../support/testServers.ts';

type Answer = {
  accepted: number;
  duplicates: number;
  unmapped: { fingerprint: string; alertname: string }[];
};

let env: ProjectorEnv;
let operator: Server;
let api: Server;
let alertmanager: Alertmanager;
let integrationToken: string;
const answers: Answer[] = [];

/** Whole seconds, as amtool's RFC 3339 flags take them. */
const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const until = async (what: string, done: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const checksOf = (monitor: number) =>
  env.t.db.any(sql.type(z.object({ at: z.number(), status: z.string() }))`
    SELECT at, data->>'status' AS status FROM event_log
    WHERE type = 'check.recorded' AND data->>'monitor_id' = ${String(monitor)} ORDER BY at, position`);

const projectNow = async () => {
  env.setNow(Date.now());
  await env.project();
};

const webhookUrl = () =>
  `http://127.0.0.1:${(operator.address() as AddressInfo).port}/v1/integrations/alertmanager/acme`;

beforeAll(async () => {
  env = await startProjectorEnv({ now: new Date().toISOString() });
  await env.append(
    pageConfigured('acme', {}, second(Date.now() - 3_600_000)),
    monitorConfigured('acme', 1, { name: 'API' }, second(Date.now() - 3_600_000)),
    pageConfigured('beta', {}, second(Date.now() - 3_600_000)),
    monitorConfigured('beta', 3, { name: 'Billing' }, second(Date.now() - 3_600_000)),
  );
  const app = buildOperatorApp({
    db: env.t.db,
    redis: env.redis,
    prefix: env.prefix,
    registry: new Registry(),
    log: pino({ level: 'silent' }),
    clock: () => new Date(),
    ingest: { token: INGEST_TOKEN, wake: () => Promise.resolve() },
  });
  // Every answer the service gives Alertmanager, to count repeats.
  app.set('trust proxy', false);
  operator = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => operator.once('listening', resolve));
  operator.on('request', (req, res) => {
    if (!req.url?.startsWith('/v1/integrations/')) return;
    const write = res.end.bind(res);
    res.end = ((chunk: unknown, ...rest: never[]) => {
      if (res.statusCode === 200 && typeof chunk === 'string') answers.push(JSON.parse(chunk) as Answer);
      return write(chunk as never, ...rest);
    }) as typeof res.end;
  });
  const created = await request(operator)
    .post('/v1/pages/acme/integration-tokens')
    .set('Authorization', `Bearer ${INGEST_TOKEN}`);
  integrationToken = (created.body as { token: string }).token;
  api = listenApi(env);
});
afterAll(async () => {
  await alertmanager?.stop();
  await new Promise((resolve) => api.close(resolve));
  await new Promise((resolve) => operator.close(resolve));
  await env.close();
});

describe('a real Alertmanager feeding a page', () => {
  const start = second(Date.now() - 20 * 60_000);
  const labels = { alertname: 'ApiDown', statuspage_monitor: '1', severity: 'critical' };

  it('turns a firing alert into a down check from its startsAt, and its repeats into duplicates', async () => {
    alertmanager = await startAlertmanager(alertmanagerConfig(webhookUrl(), integrationToken, '2s'));
    await alertmanager.addAlert(labels, { start });
    // beta's monitor, named from acme's receiver: reported unmapped, never written to beta.
    await alertmanager.addAlert({ alertname: 'BillingDown', statuspage_monitor: '3' }, { start });
    await until('the firing notification', async () => (await checksOf(1)).length === 1);
    await until('a repeat (repeat_interval 2s)', () => answers.filter((a) => a.duplicates > 0).length >= 1);
    expect(await checksOf(1)).toEqual([{ at: Date.parse(start), status: 'down' }]);
    expect(await checksOf(3)).toEqual([]);
    expect(answers.flatMap((a) => a.unmapped.map((u) => u.alertname))).toContain('BillingDown');
    await projectNow();
    const charts = (await getOk(api, '/api/status/acme/charts')) as { monitors: { state: string }[] };
    expect(charts.monitors.map((m) => m.state)).toEqual(['down']);
  });

  it('appends nothing when a restarted Alertmanager (fresh storage) sends the alert again', async () => {
    await alertmanager.stop();
    const before = answers.length;
    alertmanager = await startAlertmanager(alertmanagerConfig(webhookUrl(), integrationToken, '1h'));
    await alertmanager.addAlert(labels, { start });
    await until('the notification of the restarted Alertmanager', () => answers.length > before);
    expect(answers.slice(before).every((a) => a.accepted === 0)).toBe(true);
    expect(await checksOf(1)).toEqual([{ at: Date.parse(start), status: 'down' }]);
  });

  it('resolves: up from endsAt, the downtime to the second, and the same after a rebuild', async () => {
    const end = second(Date.now() - 5_000);
    await alertmanager.addAlert(labels, { start, end });
    await until('the resolved notification', async () => (await checksOf(1)).length === 2);
    expect(await checksOf(1)).toEqual([
      { at: Date.parse(start), status: 'down' },
      { at: Date.parse(end), status: 'up' },
    ]);
    await projectNow();
    const path = '/api/status-pages/acme/monitors/1/availability?period=24h';
    const body = (await getOk(api, path)) as { availability: object };
    expect(body.availability).toMatchObject({
      downtime_seconds: (Date.parse(end) - Date.parse(start)) / 1000,
      incident_count: 1,
    });
    const charts = (await getOk(api, '/api/status/acme/charts')) as { monitors: { state: string }[] };
    expect(charts.monitors.map((m) => m.state)).toEqual(['up']);

    // Fresh API processes before and after: an answer assembled when read keeps the instant of
    // its minute's first request in a process (assemblyClock.ts).
    const freshApi = async () => {
      await new Promise((resolve) => api.close(resolve));
      api = listenApi(env);
    };
    await freshApi();
    const live = await Promise.all([path, '/api/status/acme/charts'].map((p) => request(api).get(p)));
    await rebuild(env.deps, { prefix: env.prefix, partitions: env.partitions, graceMs: 0 });
    await freshApi();
    const rebuilt = await Promise.all([path, '/api/status/acme/charts'].map((p) => request(api).get(p)));
    expect(rebuilt.map((r) => r.text)).toEqual(live.map((r) => r.text));
  });
});
