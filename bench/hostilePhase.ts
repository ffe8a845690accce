// Hostile and careless clients against ONE API process (the real app, its listener's connection
// bounds, stream limits and caches as configured by default, but READ_CACHE_MAX_MB=16), in one
// run: (a) RSS growth over a flood of random URLs, then over every valid variant of a page,
// against the bound of the cache and the memo, (b) the hot URLs' memo hit ratio during the random
// flood, (c) how long 500 slow-header and 500 silent sockets live and an ordinary client's p99
// meanwhile ÷ idle, (d) open streams reported after thousands opened and reset at once, (e) the
// share of 429s among wrong-token guesses past the throttle's threshold.
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type ServerChild } from './children.ts';
import { streamsWithinFdLimit } from './fdLimit.ts';
import { PRIVATE_PAGE } from './fixtures.ts';
import { flood, get, HOT, rand, stats } from './hostileFlood.ts';
import { httpLoad } from './httpLoad.ts';
import type { Figure } from './report.ts';

export type HostileOptions = Readonly<{
  floodRequests: number;
  /** How long every valid variant of the demo page is requested, in turn. */
  variantSeconds: number;
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

const hostilePhase = async (server: ServerChild, options: HostileOptions): Promise<Figure[]> => {
  options.log('  (a, b) flood of random URLs, then of valid variants…');
  const figures = await flood(server, options);
  options.log('  (c) slow and silent sockets…');
  figures.push(...(await slowSockets(server, options)));
  options.log('  (d) streams opened and reset…');
  figures.push(...(await resetStreams(server, options)));
  options.log('  (e) token guesses…');
  figures.push(...(await guesses(server, options)));
  return figures;
};

// Small, so that the floods fill the caches many times over.
const CACHE_BOUND_MB = 16;

/**
 * The phase on a server of its own: defaults throughout, but the per-address stream cap (one bench
 * address) and READ_CACHE_MAX_MB.
 */
export const runHostile = async (
  serverEnv: Record<string, string>,
  quick: boolean,
  log: (line: string) => void,
): Promise<Figure[]> => {
  const streams = streamsWithinFdLimit(quick ? 1_000 : 3_000, log);
  const server = await startServer('app', {
    ...serverEnv,
    LIVE_STREAMS_PER_CLIENT: String(streams + 100),
    READ_CACHE_MAX_MB: String(CACHE_BOUND_MB),
  });
  try {
    return await hostilePhase(server, {
      floodRequests: quick ? 20_000 : 100_000,
      variantSeconds: 20,
      sockets: quick ? 200 : 500,
      streams,
      guesses: 600,
      cacheBoundMb: CACHE_BOUND_MB,
      privateSlug: PRIVATE_PAGE.slug,
      tokenFailuresMax: 10,
      log,
    });
  } finally {
    await server.stop();
  }
};
