// The edge phase (`npm run bench -- --only edge`): the real API server as the origin behind a
// private Varnish running deploy/varnish/default.vcl, a herd of 64 connections over every public
// endpoint of the demo page, and a status change every CHANGE_EVERY_MS projected in-process with
// the edge purge on. Figures: origin requests per object per change, purge latency (render commit
// → Varnish accepted the purge) and change → visible at the edge p99, and the origin's CPU for the
// same herd with and without Varnish in front.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { DatabasePool } from 'slonik';
import { createEdgePurger } from '../src/edge/edgePurger.ts';
import { varnishTarget } from '../src/edge/providers.ts';
import { activePartitions } from '../src/edge/activePartitions.ts';
import { createActiveVersionReader } from '../src/store/control/activeVersionReader.ts';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { runPartition, type ProjectorDeps } from '../src/projector/runPartition.ts';
import { partitionOf } from '../src/shared/pageHash.ts';
import { herd, pagePaths } from '../test/support/edgeHerd.ts';
import { startVarnish } from '../test/support/varnish.ts';
import { startServer } from './children.ts';
import { percentile } from './ingestPhase.ts';
import type { Figure } from './report.ts';

const CONNECTIONS = 64;
const CHANGE_EVERY_MS = 2_000;
const SLUG = 'demo';
const MONITOR = 1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const hasVarnish = (): boolean => {
  try {
    execFileSync('varnishd', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** CPU seconds (user + system) a process has used so far (Linux /proc). */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return ticks / 100; // USER_HZ
};

/** A pass-through proxy in front of the origin that counts requests per URL (probes left out). */
const countingProxy = async (originPort: number) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const hits = new Map<string, number>();
  /** Answers the API marked as possibly predating a change (a short edge lifetime). */
  const unsettled = { count: 0 };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url !== '/healthz') hits.set(url, (hits.get(url) ?? 0) + 1);
    const upstream = http.request(
      { host: '127.0.0.1', port: originPort, path: url, method: req.method, headers: req.headers, agent },
      (answer) => {
        if (/^max-age=[01],/.test(String(answer.headers['surrogate-control']))) unsettled.count += 1;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    unsettled,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
};

export type EdgeDeps = Readonly<{
  db: DatabasePool;
  projector: ProjectorDeps;
  prefix: string;
  version: number;
  partitions: number;
  serverEnv: Record<string, string>;
  log: (line: string) => void;
}>;

export const edgePhase = async (deps: EdgeDeps, options: { seconds: number }): Promise<Figure[]> => {
  if (!hasVarnish()) {
    deps.log('edge: varnishd is not installed (Debian: varnish varnish-modules): skipped');
    return [];
  }
  const origin = await startServer('app', deps.serverEnv);
  const proxy = await countingProxy(Number(new URL(origin.url).port));
  const varnish = await startVarnish(proxy.port);
  const purgeSeconds: number[] = [];
  const purger = createEdgePurger([varnishTarget(varnish.url)], {
    redis: deps.projector.redis,
    prefix: deps.prefix,
    partitions: activePartitions(createActiveVersionReader(deps.projector.redis, deps.prefix), deps.prefix),
    registry: new Registry(),
    log: pino({ level: 'silent' }),
    onPurged: (_provider, seconds) => purgeSeconds.push(seconds),
  });
  try {
    for (let tries = 0; (await varnish.backendHealth()) !== 'healthy'; tries += 1) {
      if (tries > 200) throw new Error('Varnish never found the API healthy');
      await sleep(50);
    }
    const paths = pagePaths(SLUG, MONITOR);
    const projector: ProjectorDeps = { ...deps.projector, edgePurge: { queued: purger.queued } };
    const ref = {
      prefix: deps.prefix,
      version: deps.version,
      partition: partitionOf(SLUG, deps.partitions),
      partitions: deps.partitions,
    };
    const monitorState = async (): Promise<string | undefined> => {
      const res = await fetch(`${varnish.url}/api/status/${SLUG}/charts`);
      const body = (await res.json()) as { monitors: { id: number; state: string }[] };
      return body.monitors.find((m) => m.id === MONITOR)?.state;
    };

    // The same herd straight at the origin: its CPU without an edge.
    deps.log(`edge: ${CONNECTIONS} connections × ${options.seconds} s straight at the API…`);
    let cpu = cpuSeconds(origin.pid);
    const direct = await herd(origin.url, paths, CONNECTIONS, options.seconds);
    const directCpu = cpuSeconds(origin.pid) - cpu;

    deps.log(`edge: the same herd through Varnish, a status change every ${CHANGE_EVERY_MS / 1000} s…`);
    for (const path of paths) await fetch(`${varnish.url}${path}`).then((res) => res.arrayBuffer());
    proxy.hits.clear();
    proxy.unsettled.count = 0;
    cpu = cpuSeconds(origin.pid);
    const started = Date.now();
    const running = herd(varnish.url, paths, CONNECTIONS, options.seconds);
    const visible: number[] = [];
    let status: 'up' | 'down' = (await monitorState()) === 'down' ? 'up' : 'down';
    while (Date.now() - started < options.seconds * 1000 - CHANGE_EVERY_MS) {
      const tick = Date.now();
      const at = new Date().toISOString();
      const event = {
        type: 'check.recorded',
        page: SLUG,
        at,
        data: { monitor_id: MONITOR, status, response_time_ms: 90 },
      };
      await appendEvents(deps.db, [event], { now: new Date() });
      // The log reader waits for transactions open anywhere on the server: go on until it is in.
      for (let projected = 0, tries = 0; projected < 1; tries += 1) {
        if (tries > 2_000) throw new Error('the status change was never projected');
        projected += (await runPartition(projector, ref, { mode: 'continuous' })).events;
        if (projected < 1) await sleep(5);
      }
      const committed = performance.now();
      while ((await monitorState()) !== status) await sleep(10);
      visible.push((performance.now() - committed) / 1000);
      status = status === 'down' ? 'up' : 'down';
      await sleep(Math.max(0, CHANGE_EVERY_MS - (Date.now() - tick)));
    }
    const edge = await running;
    const edgeCpu = cpuSeconds(origin.pid) - cpu;
    const changes = visible.length;
    const perObject = paths.map((path) => (proxy.hits.get(path) ?? 0) / Math.max(1, changes));
    const mean = perObject.reduce((a, b) => a + b, 0) / perObject.length;
    const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
    const originRequests = [...proxy.hits.values()].reduce((a, b) => a + b, 0);
    deps.log(
      `edge: ${edge.requests} requests through Varnish (${direct.requests} straight), ${originRequests} reached ` +
        `the API over ${changes} changes (${proxy.unsettled.count} of them marked unsettled); per object per change: ` +
        `mean ${round(mean, 2)}, max ${round(Math.max(...perObject), 2)}; change → shown: ` +
        visible.map((s) => `${Math.round(s * 1000)} ms`).join(', '),
    );
    const section = 'edge';
    const herdNote = `${CONNECTIONS} connections × ${options.seconds} s over ${paths.length} public URLs of /s/${SLUG}`;
    return [
      {
        section,
        name: 'origin requests per object per change, behind Varnish',
        unit: 'req',
        value: round(mean, 2),
        baseline: null,
        ratio: null,
        target: { text: 'a few (≤ 3)', met: Math.max(...perObject) <= 3 },
        detail: {
          max: round(Math.max(...perObject), 2),
          changes,
          herd_requests: edge.requests,
          origin_requests: originRequests,
          herd: herdNote,
        },
      },
      {
        section,
        name: 'purge latency p99 (render commit → Varnish accepted)',
        unit: 's',
        value: round(percentile(purgeSeconds, 99)),
        baseline: null,
        ratio: null,
        target: { text: '≤ 1 s', met: percentile(purgeSeconds, 99) <= 1 },
        detail: { purges: purgeSeconds.length, p50: round(percentile(purgeSeconds, 50)) },
      },
      {
        section,
        name: 'status change → shown through Varnish, p99',
        unit: 's',
        value: round(percentile(visible, 99)),
        baseline: null,
        ratio: null,
        target: { text: '≤ 1 s', met: percentile(visible, 99) <= 1 },
        detail: { changes, p50: round(percentile(visible, 50)) },
      },
      {
        section,
        name: 'origin CPU for the herd, behind Varnish',
        unit: 'CPU s',
        value: round(edgeCpu, 2),
        baseline: { name: 'the same herd straight at the API', value: round(directCpu, 2) },
        ratio: round(edgeCpu / Math.max(directCpu, 0.001)),
        detail: { herd_requests: edge.requests, direct_requests: direct.requests, herd: herdNote },
      },
    ];
  } finally {
    await purger.close();
    await varnish.stop();
    await proxy.close();
    await origin.stop();
  }
};
