// The flood of the hostile bench (bench/hostilePhase.ts): (a) RSS growth over random URLs, over
// every valid variant of a page and over one URL at the same rate, against the caches' bound, and
// what the process keeps of it; (b) the hot URLs' memo hit ratio during the random flood.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerChild } from './children.ts';
import type { Figure } from './report.ts';
import { validVariants } from './validVariants.ts';

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
    memo?: { answers: number; bytes: number };
    cache?: { entries: number; bytes: number };
    memory: NodeJS.MemoryUsage;
    spaces: Record<string, { size: number; used: number }>;
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

type Growth = Readonly<{
  rssBefore: number;
  rssAfter: number;
  /** After 10 s without requests and a full collection: what the process gave back. */
  rssSettled: number;
  heapBefore: number;
  heapAfter: number;
  /** What the cache and the memo count against their bounds afterwards, in MB. */
  counted: { cache_mb: number; cache_entries: number; memo_mb: number; memo_answers: number };
  memory: NodeJS.MemoryUsage;
  /** The V8 heap's spaces, committed and used, in bytes. */
  spaces: Record<string, { size: number; used: number }>;
}>;

/** Runs `load`, with the server's RSS and its heap after a full collection before and after. */
const measured = async <T>(server: ServerChild, load: () => Promise<T>): Promise<[T, Growth]> => {
  const heapBefore = (await stats(server.url)).heap_mb;
  const rssBefore = await rssMb(server.pid);
  const result = await load();
  const rssAfter = await rssMb(server.pid);
  const after = await stats(server.url);
  const counted = {
    cache_mb: (after.cache?.bytes ?? 0) / 2 ** 20,
    cache_entries: after.cache?.entries ?? 0,
    memo_mb: (after.memo?.bytes ?? 0) / 2 ** 20,
    memo_answers: after.memo?.answers ?? 0,
  };
  await sleep(10_000);
  await stats(server.url); // a full collection
  const rssSettled = await rssMb(server.pid);
  return [
    result,
    {
      rssBefore,
      rssAfter,
      rssSettled,
      heapBefore,
      heapAfter: after.heap_mb,
      counted,
      memory: after.memory,
      spaces: after.spaces,
    },
  ];
};

/** Requests from 32 connections, the next path from `next` until it gives null. */
const requestAll = async (server: ServerChild, next: () => string | null): Promise<number> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  let sent = 0;
  const worker = async () => {
    for (let path = next(); path !== null; path = next()) {
      sent += 1;
      await get(agent, server.url, path);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  agent.destroy();
  return sent;
};

/** `paths` in turn from 32 connections for `seconds`; how many requests were sent. */
const requestFor = (server: ServerChild, seconds: number, paths: readonly string[]): Promise<number> => {
  const until = performance.now() + seconds * 1000;
  let next = 0;
  return requestAll(server, () => (performance.now() < until ? paths[next++ % paths.length]! : null));
};

const mb = (value: number): string => value.toFixed(1);

type FloodOptions = Readonly<{ floodRequests: number; variantSeconds: number; cacheBoundMb: number }>;

/**
 * RSS growth against the bound of the cache and the memo (2 × READ_CACHE_MAX_MB) + 50 MB: right
 * after the flood, and once 10 s without requests and a full collection passed (V8 and the
 * allocator give back the room the flood's garbage took); and the heap kept.
 */
const growthFigures = (
  what: string,
  growth: Growth,
  options: FloodOptions,
  detail: { requests?: number } = {},
): Figure[] => {
  const c = growth.counted;
  const m = growth.memory;
  const space = (name: string) => growth.spaces[name] ?? { size: 0, used: 0 };
  const young = space('new_space');
  const old = space('old_space');
  const bound = 2 * options.cacheBoundMb;
  const rssFigure = (name: string, value: number, extra: Figure['detail']): Figure => ({
    section: 'hostile',
    name,
    unit: 'MB',
    value,
    baseline: { name: '2 × READ_CACHE_MAX_MB', value: bound },
    ratio: null,
    target: { text: `≤ bound + 50 MB`, met: value <= bound + 50 },
    detail: { rss_before_mb: growth.rssBefore, ...extra },
  });
  return [
    rssFigure(`(a) RSS growth over ${what}`, growth.rssAfter - growth.rssBefore, {
      rss_after_mb: growth.rssAfter,
      ...detail,
    }),
    rssFigure('(a) the same, 10 s after it, full GC', growth.rssSettled - growth.rssBefore, {
      rss_settled_mb: growth.rssSettled,
    }),
    {
      // What the process keeps of it: the heap after a full collection, before and after the flood.
      section: 'hostile',
      name: '(a) of which kept: heap growth after a full GC',
      unit: 'MB',
      value: growth.heapAfter - growth.heapBefore,
      baseline: null,
      ratio: null,
      detail: {
        heap_before_mb: growth.heapBefore,
        heap_after_mb: growth.heapAfter,
        ...c,
        note:
          `after ${what}${detail.requests === undefined ? '' : ` (${detail.requests} requests)`}: the cache counts ${mb(c.cache_mb)} MB (${c.cache_entries} entries), the memo ` +
          `${mb(c.memo_mb)} MB (${c.memo_answers} answers); the V8 heap ${mb(m.heapUsed / 2 ** 20)} MB ` +
          `used of ${mb(m.heapTotal / 2 ** 20)} MB (new space ${mb(young.used / 2 ** 20)} of ` +
          `${mb(young.size / 2 ** 20)}, old space ${mb(old.used / 2 ** 20)} of ${mb(old.size / 2 ** 20)}), ` +
          `external ${mb(m.external / 2 ** 20)} MB (array buffers ${mb(m.arrayBuffers / 2 ** 20)}), RSS ` +
          `${mb(m.rss / 2 ** 20)} MB (after a full GC)`,
      },
    },
  ];
};

/**
 * (a) and (b): the flood of random URLs from 32 connections while the hot URLs are read (first
 * the hot URLs alone); then every distinct valid variant of the demo page, in turn, for
 * `variantSeconds`; then one URL for as long.
 */
export const flood = async (server: ServerChild, options: FloodOptions): Promise<Figure[]> => {
  // Without a flood, a hot URL misses only when its cache entry expires (READ_CACHE_TTL_MS).
  const quiet = await readHot(server, sleep(3000));
  let i = 0;
  const [hot, random] = await measured(server, () =>
    readHot(
      server,
      requestAll(server, () => (i < options.floodRequests ? floodPath(i++) : null)),
    ),
  );
  const variants = validVariants();
  const [sent, valid] = await measured(server, () => requestFor(server, options.variantSeconds, variants));
  // The same rate on one URL the routes answer from the cache (SLA reports have no memo answer):
  // what request handling alone takes, with nothing new to keep.
  const [sentOne, one] = await measured(server, () =>
    requestFor(server, options.variantSeconds, ['/api/status-pages/demo/sla']),
  );
  return [
    ...growthFigures(`${options.floodRequests.toLocaleString('en-US')} random URLs`, random, options),
    ...growthFigures(
      `${options.variantSeconds} s of the ${variants.length.toLocaleString('en-US')} valid variants of a page`,
      valid,
      options,
      { requests: sent },
    ),
    ...growthFigures(`${options.variantSeconds} s of one URL answered from the cache`, one, options, {
      requests: sentOne,
    }),
    {
      section: 'hostile',
      name: '(b) hot URLs answered from the memo during the flood',
      unit: '',
      value: hot.ratio,
      baseline: { name: 'no flood', value: quiet.ratio },
      ratio: hot.ratio / quiet.ratio,
      target: { text: '≥ 0.9', met: hot.ratio >= 0.9 },
      detail: { hot_requests: hot.requests },
    },
  ];
};
