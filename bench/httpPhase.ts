// Requests per second and latency of every endpoint for the demo page, against an Express 5
// hello-world and a raw node:http + one Redis GET, each in its own child process. Baselines are
// measured before and after the endpoints and averaged, so drift shows up in neither.
import type { Figure } from './report.ts';
import { httpLoad, warmUp, type LoadResult } from './httpLoad.ts';

export type HttpTargets = Readonly<{ app: string; hello: string; raw: string }>;

const CONNECTIONS = 10;
const TARGET = 0.8;

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
  '/api/embed/markdown?slug=demo',
  '/badge/demo.svg',
  '/s/demo',
];

const NOT_MODIFIED = [
  '/api/status/demo/charts',
  '/api/status-pages/demo/incidents',
  '/api/embed/status?slug=demo&inc=1&rtm=60&upd=7',
];

const mean = (a: LoadResult, b: LoadResult): LoadResult => ({
  ...a,
  rps: (a.rps + b.rps) / 2,
  p50: (a.p50 + b.p50) / 2,
  p99: (a.p99 + b.p99) / 2,
  requests: a.requests + b.requests,
});

const latency = (r: LoadResult) => ({ p50_ms: r.p50, p99_ms: r.p99 });

export const httpPhase = async (
  targets: HttpTargets,
  options: {
    duration: number;
    baselineDuration: number;
    /** A hello-world run after every this many endpoints (and one before the first). */
    helloEvery: number;
    month: string;
    log: (line: string) => void;
  },
) => {
  const load = (url: string, duration: number, headers?: Record<string, string>) =>
    httpLoad(url, { connections: CONNECTIONS, duration, ...(headers ? { headers } : {}) });
  const endpoints = demoEndpoints(options.month);
  for (const url of [`${targets.hello}/`, `${targets.raw}/`, ...endpoints.map((p) => targets.app + p)])
    await warmUp(url);

  // Hello-world runs between the endpoints: each endpoint is compared with the mean of the runs
  // just before and after it, so a neighbour's burst on a shared machine skews few ratios.
  const hello = () => load(`${targets.hello}/`, options.baselineDuration);
  const raw1 = await load(`${targets.raw}/`, options.baselineDuration);
  const hellos: LoadResult[] = [await hello()];
  const helloAfter: number[] = [-1]; // index of the endpoint each hello-world run follows
  const measured: [string, LoadResult, number][] = [];
  for (const path of endpoints) {
    const response = await fetch(targets.app + path);
    const bytes = (await response.arrayBuffer()).byteLength;
    const result = await load(targets.app + path, options.duration);
    if (result.ok !== result.requests || result.errors > 0)
      throw new Error(
        `GET ${path}: ${result.requests - result.ok} responses were not 200, ${result.errors} errors`,
      );
    if ((measured.length + 1) % options.helloEvery === 0 || measured.length + 1 === endpoints.length) {
      hellos.push(await hello());
      helloAfter.push(measured.length);
    }
    options.log(`  GET ${path}: ${Math.round(result.rps)} req/s`);
    measured.push([path, result, bytes]);
  }
  const notModified: [string, LoadResult][] = [];
  for (const path of NOT_MODIFIED) {
    const etag = (await fetch(targets.app + path)).headers.get('etag');
    if (!etag) throw new Error(`GET ${path} sent no ETag`);
    const result = await load(targets.app + path, options.duration, { 'if-none-match': etag });
    if (result.notModified !== result.requests)
      throw new Error(`GET ${path} with If-None-Match: not every answer was 304`);
    notModified.push([path, result]);
  }
  const raw = mean(raw1, await load(`${targets.raw}/`, options.baselineDuration));
  const helloRps = hellos.map((h) => h.rps);
  const helloMean = helloRps.reduce((a, b) => a + b, 0) / helloRps.length;

  const figures: Figure[] = [
    {
      section: 'http',
      name: 'baseline: Express 5 hello-world',
      unit: 'req/s',
      value: helloMean,
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
      section: 'http',
      name: 'baseline: node:http + 1 Redis GET (the demo charts bytes)',
      unit: 'req/s',
      value: raw.rps,
      baseline: null,
      ratio: null,
      detail: latency(raw),
    },
  ];
  measured.forEach(([path, r, bytes], i) => {
    const after = helloAfter.findIndex((position) => position >= i);
    const around = (helloRps[after - 1]! + helloRps[after]!) / 2;
    figures.push({
      section: 'http',
      name: `GET ${path}`,
      unit: 'req/s',
      value: r.rps,
      baseline: { name: 'hello-world', value: around },
      ratio: r.rps / around,
      target: { text: `≥ ${TARGET} × hello-world`, met: r.rps >= TARGET * around },
      detail: { ...latency(r), body_bytes: bytes, ratio_to_raw_node_redis: r.rps / raw.rps },
    });
  });
  for (const [path, r] of notModified) {
    const full = measured.find(([p]) => p === path)?.[1];
    figures.push({
      section: 'notModified',
      name: `GET ${path} → 304`,
      unit: 'req/s',
      value: r.rps,
      baseline: { name: 'hello-world (mean)', value: helloMean },
      ratio: r.rps / helloMean,
      detail: { ...latency(r), rps_200_same_endpoint: full?.rps ?? 0 },
    });
  }
  return figures;
};
