// Requests per second and latency of every endpoint for the demo page, on its 200 path and its
// 304 path (If-None-Match with the current ETag), at 10 and at 256 connections, against an
// Express 5 hello-world and a raw node:http + one Redis GET, each in its own child process. Each
// endpoint run is compared with the hello-world runs (same connection count) just before and after
// it, so a neighbour's burst on a shared machine skews few ratios.
import type { Figure } from './report.ts';
import { httpLoad, warmUp, type LoadResult } from './httpLoad.ts';

export type HttpTargets = Readonly<{ app: string; hello: string; raw: string }>;

export const CONNECTIONS = [10, 256] as const;
const TARGET = 0.8;

export const EMBED_FULL = '/api/embed/status?slug=demo&inc=1&rtm=240&upd=30';

export const demoEndpoints = (month: string): string[] => [
  '/api/status-pages/demo/incidents',
  `/api/status-pages/demo/incidents/filter?month=${month}`,
  `/api/status-pages/demo/incidents/daily-counts?month=${month}`,
  '/api/status-pages/demo/maintenances',
  `/api/status-pages/demo/maintenances/filter?month=${month}`,
  `/api/status-pages/demo/maintenances/daily-counts?month=${month}`,
  '/api/status/demo/charts',
  '/api/status-page/demo/minute-data',
  '/api/status-pages/demo/monitors/1/availability?period=30d',
  '/api/embed/status?slug=demo&inc=1&rtm=60&upd=7',
  EMBED_FULL,
  '/api/embed/markdown?slug=demo',
  '/badge/demo.svg',
  '/s/demo',
];

const latency = (r: LoadResult) => ({ p50_ms: r.p50, p99_ms: r.p99 });

type Run = Readonly<{ path: string; notModified: boolean; result: LoadResult; bytes: number }>;

const etagOf = async (url: string): Promise<string> => {
  const response = await fetch(url);
  await response.arrayBuffer();
  const etag = response.headers.get('etag');
  if (!etag) throw new Error(`GET ${url} sent no ETag`);
  return etag;
};

export const httpPhase = async (
  targets: HttpTargets,
  options: {
    duration: number;
    baselineDuration: number;
    /** A hello-world run after every this many endpoint runs (and one before the first). */
    helloEvery: number;
    month: string;
    log: (line: string) => void;
  },
) => {
  const endpoints = demoEndpoints(options.month);
  for (const url of [`${targets.hello}/`, `${targets.raw}/`, ...endpoints.map((p) => targets.app + p)])
    await warmUp(url);
  const etags = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const path of endpoints) {
    const response = await fetch(targets.app + path);
    sizes.set(path, (await response.arrayBuffer()).byteLength);
    const etag = response.headers.get('etag');
    if (!etag) throw new Error(`GET ${path} sent no ETag`);
    etags.set(path, etag);
  }

  const figures: Figure[] = [];
  for (const connections of CONNECTIONS) {
    const load = (url: string, duration: number, headers?: Record<string, string>) =>
      httpLoad(url, { connections, duration, ...(headers ? { headers } : {}) });
    const hello = () => load(`${targets.hello}/`, options.baselineDuration);
    const raw = await load(`${targets.raw}/`, options.baselineDuration);
    const hellos: LoadResult[] = [await hello()];
    const helloAfter: number[] = [-1]; // index of the run each hello-world run follows
    const runs: Run[] = [];
    const plan = endpoints.flatMap((path) => [
      { path, notModified: false },
      { path, notModified: true },
    ]);
    for (const { path, notModified } of plan) {
      // Answers assembled from the series change their ETag with the minute: take the current
      // one, and measure again once when the minute turned during the run.
      const run = async () => {
        if (notModified) etags.set(path, await etagOf(targets.app + path));
        return load(
          targets.app + path,
          options.duration,
          notModified ? { 'if-none-match': etags.get(path)! } : undefined,
        );
      };
      let result = await run();
      if (
        notModified &&
        result.notModified !== result.requests &&
        (await etagOf(targets.app + path)) !== etags.get(path)
      )
        result = await run();
      const answered = notModified ? result.notModified : result.ok;
      if (answered !== result.requests || result.errors > 0)
        throw new Error(
          `GET ${path}${notModified ? ' (If-None-Match)' : ''} at ${connections} connections: ` +
            `${result.requests - answered} answers were not ${notModified ? 304 : 200}, ${result.errors} errors`,
        );
      runs.push({ path, notModified, result, bytes: notModified ? 0 : sizes.get(path)! });
      if (runs.length % options.helloEvery === 0 || runs.length === plan.length) {
        hellos.push(await hello());
        helloAfter.push(runs.length - 1);
      }
      options.log(
        `  ${connections} conn GET ${path}${notModified ? ' → 304' : ''}: ${Math.round(result.rps)} req/s`,
      );
    }
    const helloRps = hellos.map((h) => h.rps);
    const suffix = connections === 10 ? '' : String(connections);
    figures.push(
      {
        section: `http${suffix}`,
        name: 'baseline: Express 5 hello-world',
        unit: 'req/s',
        value: helloRps.reduce((a, b) => a + b, 0) / helloRps.length,
        baseline: null,
        ratio: null,
        detail: {
          ...latency(hellos[0]!),
          runs: hellos.length,
          min_rps: Math.min(...helloRps),
          max_rps: Math.max(...helloRps),
        },
      },
      {
        section: `http${suffix}`,
        name: 'baseline: node:http + 1 Redis GET (the demo snippets bytes)',
        unit: 'req/s',
        value: raw.rps,
        baseline: null,
        ratio: null,
        detail: latency(raw),
      },
    );
    runs.forEach(({ path, notModified, result, bytes }, i) => {
      const after = helloAfter.findIndex((position) => position >= i);
      const around = (helloRps[after - 1]! + helloRps[after]!) / 2;
      figures.push({
        section: `${notModified ? 'notModified' : 'http'}${suffix}`,
        name: `GET ${path}${notModified ? ' → 304' : ''}`,
        unit: 'req/s',
        value: result.rps,
        baseline: { name: 'hello-world', value: around },
        ratio: result.rps / around,
        target: { text: `≥ ${TARGET} × hello-world`, met: result.rps >= TARGET * around },
        detail: { ...latency(result), body_bytes: bytes, ratio_to_raw_node_redis: result.rps / raw.rps },
      });
    });
  }
  return figures;
};
