// A real Prometheus (Debian's) scrapes a running service — the API's operator listener, which adds
// up the public API processes' metrics, and a worker's probe port — with the alert rules loaded:
// every metric the rules and the dashboard name exists in what it scraped, the KEDA trigger's
// fields are in GET /v1/autoscale, the manifests' probes answer, and an alert fires for real when
// a page is quarantined.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { partitionTag } from '../../projections/store/control/keys.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { quarantineKey } from '../../projections/quarantine/storage.ts';
import { buildDist, startDist, type Build, type DistProcess } from '../support/distProcess.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import {
  dashboardExpressions,
  deployFile,
  kubernetesDocuments,
  metricsTheKitNames,
  root,
} from '../support/operatorKit.ts';
import { freePort } from '../support/redisServer.ts';
import * as testEnv from '../support/testEnv.ts';

const TOKEN = 'kit-test-token-0123456789';

/** Polls `read` until `done` holds for its value (or the time is up); returns the last value. */
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if ((value !== undefined && done(value)) || Date.now() > deadline) return value;
    await sleep(250);
  }
};

type Sample = { metric: Record<string, string>; value: [number, string] };

describe('Prometheus scraping the service', () => {
  let build: Build;
  let t: testEnv.TestDatabase;
  let dir: string;
  let prometheus: ChildProcess | undefined;
  const redis = testEnv.testRedis();
  const prefix = testEnv.freshRedisPrefix();
  const running: DistProcess[] = [];
  const ports = { public: 0, operator: 0, worker: 0, prometheus: 0, edge: 0 };
  const requests = { before: 0 };

  const query = async (promql: string): Promise<Sample[]> => {
    const url = `http://127.0.0.1:${ports.prometheus}/api/v1/query?query=${encodeURIComponent(promql)}`;
    return ((await (await fetch(url)).json()) as { data: { result: Sample[] } }).data.result;
  };
  const scrapedNames = async (): Promise<string[]> =>
    (
      (await (await fetch(`http://127.0.0.1:${ports.prometheus}/api/v1/label/__name__/values`)).json()) as {
        data: string[];
      }
    ).data;

  beforeAll(async () => {
    [build, t, dir] = await Promise.all([
      buildDist(),
      testEnv.freshDatabase(),
      mkdtemp(join(tmpdir(), 'prom-')),
    ]);
    for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
    const env = {
      DATABASE_URL: t.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: prefix,
      HOST: '127.0.0.1',
      PORT: String(ports.public),
      INGEST_PORT: String(ports.operator),
      INGEST_TOKEN: TOKEN,
      WORKER_PROBE_PORT: String(ports.worker),
      PROJECTOR_PARTITIONS: '2',
      LOG_LEVEL: 'info',
    };
    const api = startDist(build.main, ['serve'], { ...env, WEB_CONCURRENCY: '2' });
    running.push(api);
    await api.waitForLine((line) => line.msg === 'public API listening');
    // A Varnish nobody runs: the purge metrics exist (from 0) and its purges fail, as they may.
    const edge = { EDGE_PURGE: 'varnish', EDGE_VARNISH_URLS: `http://127.0.0.1:${String(ports.edge)}` };
    const worker = startDist(build.main, ['work'], { ...env, ...edge });
    running.push(worker);
    await worker.waitForLine((line) => line.msg === 'projector workers started');
    // The first job builds the (empty) models; events after it are projected batch by batch.
    await worker.waitForLine((line) => line.msg === 'read models active');

    const now = new Date(Date.now() - 60_000).toISOString();
    const events = [pageConfigured('kit'), monitorConfigured('kit', 1), check('kit', 1, now)];
    const ingest = await fetch(`http://127.0.0.1:${ports.operator}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(events),
    });
    expect(ingest.status).toBe(202);
    const projected = await until(
      async () =>
        (await (await fetch(`http://127.0.0.1:${ports.operator}/v1/projection-status`)).json()) as {
          lag_events: number;
          log_position: string;
        },
      (status) => status.lag_events === 0 && status.log_position === '3',
    );
    expect(projected).toMatchObject({ lag_events: 0, log_position: '3' });
    // Lag 0 comes with the commit; the render follows it: read until the page answers, then 5 more.
    const charts = () => fetch(`http://127.0.0.1:${ports.public}/api/status/kit/charts`);
    await until(
      async () => ((requests.before += 1), (await charts()).status),
      (status) => status === 200,
    );
    for (let i = 0; i < 5; i++) expect((await charts()).status).toBe(200);

    // The real rules, with every `for` cut to a second so that a test sees an alert fire.
    const rules = (await readFile(deployFile('prometheus', 'alerts.yml'), 'utf8')).replace(
      /\bfor: \S+/g,
      'for: 1s',
    );
    await writeFile(join(dir, 'alerts.yml'), rules);
    await writeFile(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'rule_files: [alerts.yml]',
        'scrape_configs:',
        `  - { job_name: statuspage-api, static_configs: [{ targets: ['127.0.0.1:${ports.operator}'] }] }`,
        `  - { job_name: statuspage-worker, static_configs: [{ targets: ['127.0.0.1:${ports.worker}'] }] }`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${ports.prometheus}`,
        '--log.level=error',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    prometheus.once('error', (error) => {
      throw new Error(`prometheus could not start (install Debian's "prometheus" package): ${error.message}`);
    });
    const up = await until(
      () => query('up == 1'),
      (samples) => samples.length === 2,
    );
    expect(up.map((s) => s.metric['job']).sort()).toEqual(['statuspage-api', 'statuspage-worker']);
  });

  afterAll(async () => {
    prometheus?.kill('SIGKILL');
    for (const { child } of running) child.kill('SIGKILL');
    await testEnv.dropRedisPrefix(redis, prefix);
    redis.disconnect();
    await t.close();
    await build?.remove();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has scraped every metric the alert rules and the dashboard name', async () => {
    const named = metricsTheKitNames();
    const missing = (names: string[]) => named.filter((name) => !names.includes(name));
    const scraped = await until(scrapedNames, (names) => missing(names).length === 0, 20_000);
    expect(missing(scraped)).toEqual([]);
    expect(named.length).toBeGreaterThan(25);
    // And every metric the service exports is explained in docs/operations.md (Node's own aside).
    const docs = await readFile(join(root, 'docs', 'operations.md'), 'utf8');
    const ours = scraped.filter((name) => !/^(process_|nodejs_|up$|scrape_|ALERTS)/.test(name));
    const undocumented = ours.filter(
      (name) => !docs.includes(`| \`${name.replace(/_(bucket|sum|count)$/, '')}\``),
    );
    expect(undocumented).toEqual([]);
  });

  it('accepts every query of the dashboard', async () => {
    for (const expr of dashboardExpressions()) {
      const promql = expr.replaceAll('$__rate_interval', '1m').replaceAll('$route', '.*');
      const url = `http://127.0.0.1:${ports.prometheus}/api/v1/query?query=${encodeURIComponent(promql)}`;
      const answer = (await (await fetch(url)).json()) as { status: string; error?: string };
      expect(answer, expr).toEqual(expect.objectContaining({ status: 'success' }));
    }
  });

  it('reads what the service does: two API processes, Redis with noeviction, the reads from memory', async () => {
    const value = async (promql: string) => Number((await query(promql))[0]?.value[1]);
    expect(await value('api_processes_alive')).toBe(2);
    expect(await value('min(readiness_dependency_up)')).toBe(1);
    expect(await value('min(redis_maxmemory_policy_noeviction)')).toBe(1);
    expect(await value('max(projector_partition_lag_events)')).toBe(0);
    const made = requests.before + 5;
    // Every answer of the page went through the cache (the ones before its render may not have).
    const cacheReads = await value('sum(read_cache_requests_total)');
    expect(cacheReads).toBeGreaterThanOrEqual(6);
    expect(cacheReads).toBeLessThanOrEqual(made);
    expect(await value('sum(http_requests_total{route="/api/status/:slug/charts"})')).toBe(made);
    expect(
      await value('sum(http_requests_total{route="/api/status/:slug/charts", status="200"})'),
    ).toBeGreaterThanOrEqual(6);
    expect(await value('sum(projector_renders_total)')).toBeGreaterThan(0);
    expect(await value('sum(projector_events_projected_total)')).toBe(3);
  });

  it('answers the KEDA trigger and the probes of the manifests', async () => {
    const figures = (await (await fetch(`http://127.0.0.1:${ports.operator}/v1/autoscale`)).json()) as Record<
      string,
      unknown
    >;
    expect(figures).toEqual({
      backlog_events: 0,
      lag_seconds: 0,
      partitions: 2,
      partitions_behind: 0,
      max_partition_lag_events: 0,
    });
    const docs = kubernetesDocuments().map((d) => d.doc as { kind: string; spec: Record<string, unknown> });
    const scaled = docs.find((d) => d.kind === 'ScaledObject')!.spec as {
      triggers: { metadata: { valueLocation: string } }[];
    };
    for (const trigger of scaled.triggers)
      expect(typeof figures[trigger.metadata.valueLocation]).toBe('number');

    const byName: Record<string, number> = {
      http: ports.public,
      operator: ports.operator,
      probes: ports.worker,
    };
    type Probe = { httpGet: { path: string; port: string } };
    type Pod = {
      template: {
        spec: { containers: { livenessProbe?: Probe; readinessProbe?: Probe; startupProbe?: Probe }[] };
      };
    };
    const probes = docs
      .filter((d) => d.kind === 'Deployment')
      .flatMap((d) => (d.spec as Pod).template.spec.containers)
      .flatMap((c) =>
        [c.livenessProbe, c.readinessProbe, c.startupProbe].flatMap((p) => (p ? [p.httpGet] : [])),
      );
    expect(probes.length).toBeGreaterThanOrEqual(6);
    for (const probe of probes)
      expect(
        (await fetch(`http://127.0.0.1:${byName[probe.port]}${probe.path}`)).status,
        `${probe.port} ${probe.path}`,
      ).toBe(200);
  });

  it('fires StatuspageQuarantinedPages when a page is quarantined, StatuspagePurgeFailures when purges fail', async () => {
    const active = (await readActive(redis, prefix))!;
    const quarantine = {
      kind: 'render',
      position: '0:3',
      error: 'a render bug',
      since: new Date().toISOString(),
    };
    await redis.hset(
      quarantineKey(partitionTag(prefix, active.version, 0)),
      'ghost',
      JSON.stringify(quarantine),
    );
    const firing = await until(
      () => query('ALERTS{alertname="StatuspageQuarantinedPages", alertstate="firing"}'),
      (samples) => samples.length === 1,
    );
    expect(firing.map((s) => s.metric)).toEqual([
      {
        __name__: 'ALERTS',
        alertname: 'StatuspageQuarantinedPages',
        alertstate: 'firing',
        severity: 'warning',
      },
    ]);
    // The worker's purges go to a Varnish nobody runs: they fail, and that alert fires too; no other.
    await until(
      () => query('ALERTS{alertname="StatuspagePurgeFailures", alertstate="firing"}'),
      (samples) => samples.length === 1,
    );
    const names = (await query('ALERTS{alertstate="firing"}')).map((s) => s.metric['alertname']);
    expect(names.sort()).toEqual(['StatuspagePurgeFailures', 'StatuspageQuarantinedPages']);
  });
});
