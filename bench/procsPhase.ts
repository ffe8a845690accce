// Processes: how long `node dist/main.js serve` takes from spawn to its first 200 against the same
// command under tsx (the development runner), and req/s on one endpoint with WEB_CONCURRENCY = the
// machine's cores against WEB_CONCURRENCY=1. Both run the real command against the bench's
// database and Redis prefix; the build goes to a directory of its own (dist/ is left alone).
import { createServer } from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildToScratch, spawnService } from './children.ts';
import { httpLoad, warmUp, type LoadResult } from './httpLoad.ts';
import type { Figure } from './report.ts';

const ENDPOINT = '/api/embed/status?slug=demo&inc=1&rtm=60&upd=7';
const CONNECTIONS = 64;
const READY_WITHIN_MS = 60_000;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error()),
      );
    });
  });

const answers200 = async (url: string): Promise<boolean> => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).status === 200;
  } catch {
    return false;
  }
};

type Options = Readonly<{ env: Record<string, string>; quick: boolean; log: (line: string) => void }>;

/** Spawns `serve`; resolves with the ms from spawn to the first 200 on ENDPOINT, and the process. */
const serveUntil200 = async (runner: 'node' | 'tsx', entry: string, processes: number, options: Options) => {
  const port = await freePort();
  const began = performance.now();
  const service = spawnService(runner, [entry, 'serve'], {
    ...options.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    INGEST_PORT: '0',
    // The request log's cost is measured in the HTTP section; here it would only fill a pipe.
    LOG_LEVEL: 'warn',
    WEB_CONCURRENCY: String(processes),
  });
  const url = `http://127.0.0.1:${port}${ENDPOINT}`;
  while (!(await answers200(url))) {
    if (!service.running() || performance.now() - began > READY_WITHIN_MS) {
      await service.stop();
      throw new Error(`${runner} ${entry} serve gave no 200 on ${ENDPOINT}:\n${service.errors()}`);
    }
    await sleep(5);
  }
  return { ms: performance.now() - began, url, stop: service.stop };
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const startupFigures = async (entry: string, options: Options): Promise<Figure> => {
  const runs = options.quick ? 3 : 5;
  // One unmeasured start each: tsx's transform cache and the OS file cache warm, as on a redeploy.
  const time = async (runner: 'node' | 'tsx', file: string) => {
    const started = await serveUntil200(runner, file, 1, options);
    await started.stop();
    return started.ms;
  };
  await time('node', entry);
  await time('tsx', 'src/main.ts');
  const dist: number[] = [];
  const tsx: number[] = [];
  for (let i = 0; i < runs; i++) {
    dist.push(await time('node', entry));
    tsx.push(await time('tsx', 'src/main.ts'));
  }
  options.log(`  startup: node dist ${Math.round(median(dist))} ms, tsx ${Math.round(median(tsx))} ms`);
  return {
    section: 'procs',
    name: 'startup of serve, spawn → first 200 (median)',
    unit: 'ms',
    value: median(dist),
    baseline: { name: 'under tsx', value: median(tsx) },
    ratio: median(dist) / median(tsx),
    detail: {
      runs,
      dist_ms: dist.map((ms) => Math.round(ms)).join(' '),
      tsx_ms: tsx.map((ms) => Math.round(ms)).join(' '),
      note: `node dist/main.js serve vs node --import tsx src/main.ts serve, WEB_CONCURRENCY=1, to the first 200 on ${ENDPOINT} (migrations checked and Redis connected on the way); ${runs} alternating runs each after one unmeasured`,
    },
  };
};

const throughputFigure = async (entry: string, options: Options): Promise<Figure> => {
  const cores = os.availableParallelism();
  const duration = options.quick ? 3 : 8;
  const rps = async (processes: number) => {
    const server = await serveUntil200('node', entry, processes, options);
    try {
      await warmUp(server.url);
      const result = await httpLoad(server.url, { connections: CONNECTIONS, duration });
      if (result.ok !== result.requests || result.errors > 0)
        throw new Error(`GET ${ENDPOINT} with WEB_CONCURRENCY=${processes}: not every answer was 200`);
      return result;
    } finally {
      await server.stop();
    }
  };
  // Alternating runs (1, N, N, 1) so drift on a shared machine weighs on both alike.
  const runs = [await rps(1), await rps(cores), await rps(cores), await rps(1)];
  const mean = (a: LoadResult, b: LoadResult) => ({ rps: (a.rps + b.rps) / 2, p50: a.p50, p99: a.p99 });
  const one = mean(runs[0]!, runs[3]!);
  const many = mean(runs[1]!, runs[2]!);
  options.log(`  WEB_CONCURRENCY=${cores}: ${Math.round(many.rps)} req/s, 1: ${Math.round(one.rps)} req/s`);
  return {
    section: 'procs',
    name: `${ENDPOINT}, WEB_CONCURRENCY=${cores} (cores)`,
    unit: 'req/s',
    value: many.rps,
    baseline: { name: 'WEB_CONCURRENCY=1', value: one.rps },
    ratio: many.rps / one.rps,
    detail: {
      p50_ms: many.p50,
      p99_ms: many.p99,
      connections: CONNECTIONS,
      note: `${CONNECTIONS} connections, two alternating runs of ${duration} s each (p50/p99 of the first); the load generator runs on the same ${cores} cores as the ${cores} API processes, the primary and Redis, so the ratio understates what separate client machines would see`,
    },
  };
};

export const procsPhase = async (options: Options): Promise<Figure[]> => {
  const began = performance.now();
  const build = await buildToScratch();
  options.log(`  npm run build: ${Math.round(performance.now() - began)} ms`);
  try {
    return [await startupFigures(build.entry, options), await throughputFigure(build.entry, options)];
  } finally {
    await build.remove();
  }
};
