// The flood of the hostile bench (bench/hostilePhase.ts): (a) RSS growth over random URLs against
// the cache bound, and what the process keeps of it; (b) the hot URLs' memo hit ratio meanwhile.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerChild } from './children.ts';
import type { Figure } from './report.ts';

export const HOT = [
  '/api/status/demo/charts',
  '/api/status-pages/demo/incidents',
  '/api/embed/status?slug=demo',
  '/api/status-pages/demo/maintenances',
  '/badge/demo.svg',
];

const rssMb = async (pid: number): Promise<number> =>
  Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

export const rand = () => randomBytes(6).toString('hex');

/** The flood's URLs, in turn: random parameters, pages and months, unknown slugs, 8 KB queries. */
const floodPath = (i: number): string => {
  switch (i % 5) {
    case 0:
      return `/api/status/demo/charts?${rand()}=${rand()}`;
    case 1:
      return `/api/status-pages/demo/incidents?page=${1 + Math.floor(Math.random() * 2 ** 52)}`;
    case 2:
      return `/api/status-pages/demo/incidents/filter?month=${1000 + Math.floor(Math.random() * 9000)}-0${1 + (i % 9)}`;
    case 3:
      return `/api/status/x${rand()}/charts`;
    default:
      return `/api/embed/status?slug=demo&pad=${randomBytes(4096).toString('hex')}`;
  }
};

export const get = (agent: http.Agent, base: string, path: string, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve) => {
    const req = http.get(`${base}${path}`, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });

export const stats = async (base: string) =>
  (await (await fetch(`${base}/__bench/stats`)).json()) as {
    hot: { requests: number; memo: number };
    live_streams_open: number;
    heap_mb: number;
  };

const HOT_CONNECTIONS = 4;

/** The hot URLs' readers, from HOT_CONNECTIONS connections until `until` resolves: their memo hit ratio. */
const readHot = async (server: ServerChild, until: Promise<unknown>) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: HOT_CONNECTIONS });
  const before = (await stats(server.url)).hot;
  let done = false;
  const reader = async (offset: number) => {
    for (let i = offset; !done; i += 1)
      await get(agent, server.url, HOT[i % HOT.length]!, { 'X-Bench-Hot': '1' });
  };
  const readers = Array.from({ length: HOT_CONNECTIONS }, (_, i) => reader(i));
  await until;
  done = true;
  await Promise.all(readers);
  agent.destroy();
  const after = (await stats(server.url)).hot;
  const requests = after.requests - before.requests;
  return { requests, ratio: (after.memo - before.memo) / requests };
};

/** (a) and (b): the flood from 32 connections while the hot URLs are read; first the hot URLs alone. */
export const flood = async (
  server: ServerChild,
  options: Readonly<{ floodRequests: number; cacheBoundMb: number }>,
): Promise<Figure[]> => {
  // Without a flood, a hot URL misses only when its cache entry expires (READ_CACHE_TTL_MS).
  const quiet = await readHot(server, sleep(3000));
  const heapBefore = (await stats(server.url)).heap_mb;
  const before = await rssMb(server.pid);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  let next = 0;
  const worker = async () => {
    while (next < options.floodRequests) await get(agent, server.url, floodPath(next++));
  };
  const hot = await readHot(server, Promise.all(Array.from({ length: 32 }, worker)));
  agent.destroy();
  const after = await rssMb(server.pid);
  const heapAfter = (await stats(server.url)).heap_mb;
  const growth = after - before;
  const ratio = hot.ratio;
  const hotRequests = hot.requests;
  return [
    {
      section: 'hostile',
      name: `(a) RSS growth over ${options.floodRequests.toLocaleString('en-US')} random URLs`,
      unit: 'MB',
      value: growth,
      baseline: { name: 'READ_CACHE_MAX_MB', value: options.cacheBoundMb },
      ratio: null,
      target: { text: `≤ bound + 50 MB`, met: growth <= options.cacheBoundMb + 50 },
      detail: { rss_before_mb: before, rss_after_mb: after },
    },
    {
      // What the process keeps of it: the heap after a full collection, before and after the flood.
      section: 'hostile',
      name: '(a) of which kept: heap growth after a full GC',
      unit: 'MB',
      value: heapAfter - heapBefore,
      baseline: null,
      ratio: null,
      detail: { heap_before_mb: heapBefore, heap_after_mb: heapAfter },
    },
    {
      section: 'hostile',
      name: '(b) hot URLs answered from the memo during the flood',
      unit: '',
      value: ratio,
      baseline: { name: 'no flood', value: quiet.ratio },
      ratio: ratio / quiet.ratio,
      target: { text: '≥ 0.9', met: ratio >= 0.9 },
      detail: { hot_requests: hotRequests },
    },
  ];
};
