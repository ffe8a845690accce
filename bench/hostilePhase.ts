// Hostile and careless clients against ONE API process (the real app, its listener's connection
// bounds, stream limits and caches as configured by default), in one run (issue "Bounded at the
// edge"): (a) RSS growth over a flood of random URLs against the cache bound, (b) the hot URLs'
// memo hit ratio during that flood, (c) how long 500 slow-header and 500 silent sockets live and
// an ordinary client's p99 meanwhile ÷ idle, (d) open streams reported after thousands opened and
// reset at once, (e) the share of 429s among wrong-token guesses past the throttle's threshold.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerChild } from './children.ts';
import { httpLoad } from './httpLoad.ts';
import type { Figure } from './report.ts';

export type HostileOptions = Readonly<{
  floodRequests: number;
  sockets: number;
  streams: number;
  guesses: number;
  /** READ_CACHE_MAX_MB of the server. */
  cacheBoundMb: number;
  /** The private page whose token is guessed, and the throttle's threshold. */
  privateSlug: string;
  tokenFailuresMax: number;
  log: (line: string) => void;
}>;

const HOT = [
  '/api/status/demo/charts',
  '/api/status-pages/demo/incidents',
  '/api/embed/status?slug=demo',
  '/api/status-pages/demo/maintenances',
  '/badge/demo.svg',
];

const rssMb = async (pid: number): Promise<number> =>
  Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

const rand = () => randomBytes(6).toString('hex');

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

const get = (agent: http.Agent, base: string, path: string, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve) => {
    const req = http.get(`${base}${path}`, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });

const stats = async (base: string) =>
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
const flood = async (server: ServerChild, options: HostileOptions): Promise<Figure[]> => {
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

/** (c): slow-header and silent sockets, and an ordinary client's p99 meanwhile against idle. */
const slowSockets = async (server: ServerChild, options: HostileOptions): Promise<Figure[]> => {
  const url = `${server.url}${HOT[0]}`;
  const idle = await httpLoad(url, { connections: 4, duration: 3 });
  const { port } = new URL(server.url);
  const started = performance.now();
  let open = 0;
  let lastClosed = 0;
  const trickles: NodeJS.Timeout[] = [];
  const connect = (i: number) =>
    new Promise<net.Socket>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
      open += 1;
      socket.on('error', () => resolve(socket));
      socket.on('close', () => {
        open -= 1;
        lastClosed = performance.now() - started;
      });
      if (i % 2 === 1) return; // silent: never a byte
      // Slow headers: one more header line every second, never the blank line that ends them.
      socket.once('connect', () => socket.write('GET /api/status/demo/charts HTTP/1.1\r\nHost: bench\r\n'));
      trickles.push(setInterval(() => socket.writable && socket.write(`X-Slow-${rand()}: 1\r\n`), 1000));
    });
  // Connected 100 at a time (within a second or so): all at once would overflow the listen backlog,
  // and the kernel's SYN retries, not the server, would decide when the last one connects.
  const sockets: net.Socket[] = [];
  for (let i = 0; i < 2 * options.sockets; i += 100)
    sockets.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, 2 * options.sockets - i) }, (_, j) => connect(i + j)),
      )),
    );
  const during = await httpLoad(url, { connections: 4, duration: 12 });
  for (let waited = 0; open > 0 && waited < 60_000; waited += 250) await sleep(250);
  for (const trickle of trickles) clearInterval(trickle);
  for (const socket of sockets) socket.destroy();
  const unclosed = open;
  const seconds = unclosed > 0 ? Infinity : lastClosed / 1000;
  const ratio = during.p99 / idle.p99;
  return [
    {
      section: 'hostile',
      name: `(c) ${options.sockets} slow-header + ${options.sockets} silent sockets all closed after`,
      unit: 's',
      value: seconds,
      baseline: null,
      ratio: null,
      target: { text: '≤ 30 s', met: seconds <= 30 },
      detail: unclosed > 0 ? { note: `${unclosed} of those sockets still open after 72 s` } : {},
    },
    {
      section: 'hostile',
      name: '(c) an ordinary client meanwhile: p99',
      unit: 'ms',
      value: during.p99,
      baseline: { name: 'idle', value: idle.p99 },
      ratio,
      target: { text: '≤ 3×', met: ratio <= 3 },
      detail: { rps: during.rps, idle_rps: idle.rps },
    },
  ];
};

/** (d): streams opened at once and reset (half while the route still reads, half once open). */
const resetStreams = async (server: ServerChild, options: HostileOptions): Promise<Figure[]> => {
  const { port } = new URL(server.url);
  let peak = 0;
  const sockets = await Promise.all(
    Array.from(
      { length: options.streams },
      (_, i) =>
        new Promise<net.Socket>((resolve) => {
          const socket = net.connect(Number(port), '127.0.0.1', () => {
            socket.write(
              'GET /api/embed/stream?slug=demo HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n',
            );
            if (i % 2 === 0) resolve(socket);
            else socket.once('data', () => resolve(socket));
          });
          socket.on('error', () => resolve(socket));
        }),
    ),
  );
  peak = (await stats(server.url)).live_streams_open;
  for (const socket of sockets) socket.resetAndDestroy();
  let open = peak;
  for (let waited = 0; waited < 10_000; waited += 100) {
    open = (await stats(server.url)).live_streams_open;
    if (open === 0) break;
    await sleep(100);
  }
  return [
    {
      section: 'hostile',
      name: `(d) open streams reported after ${options.streams.toLocaleString('en-US')} opened and reset at once`,
      unit: '',
      value: open,
      baseline: null,
      ratio: null,
      target: { text: '0', met: open === 0 },
      detail: { peak_reported: peak },
    },
  ];
};

/** (e): wrong tokens for a private page from one address. */
const guesses = async (server: ServerChild, options: HostileOptions): Promise<Figure[]> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const statuses: number[] = [];
  for (let i = 0; i < options.guesses; i += 1)
    statuses.push(
      await get(
        agent,
        server.url,
        `/api/status/${options.privateSlug}/charts?auth_token=guess-${rand()}-${i}`,
      ),
    );
  agent.destroy();
  const past = statuses.slice(options.tokenFailuresMax);
  const share = past.filter((status) => status === 429).length / past.length;
  return [
    {
      section: 'hostile',
      name: `(e) 429s among ${options.guesses} wrong-token guesses, past the first ${options.tokenFailuresMax}`,
      unit: '',
      value: share,
      baseline: null,
      ratio: null,
      target: { text: '≥ 0.9', met: share >= 0.9 },
      detail: { refused_401: statuses.filter((status) => status === 401).length },
    },
  ];
};

export const hostilePhase = async (server: ServerChild, options: HostileOptions): Promise<Figure[]> => {
  options.log('  (a, b) flood of random URLs…');
  const figures = await flood(server, options);
  options.log('  (c) slow and silent sockets…');
  figures.push(...(await slowSockets(server, options)));
  options.log('  (d) streams opened and reset…');
  figures.push(...(await resetStreams(server, options)));
  options.log('  (e) token guesses…');
  figures.push(...(await guesses(server, options)));
  return figures;
};
