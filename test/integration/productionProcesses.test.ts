// The production build (`node dist/main.js`, built by build/build.js) serves (the status page's
// assets as built, the live-stream gauge on /metrics), and with
// WEB_CONCURRENCY=2 `serve` runs the public API in two processes that both answer (each started
// with the API's node flags), replaces one that is killed, and drains them all on SIGTERM, exiting
// 0; a guesser of a private page's token gets no more wrong tokens checked from the two than from
// one; with its PostgreSQL stopped, an API process stays ready for reads and answers them.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_NODE_FLAGS } from '../../src/runtime/apiNodeFlags.ts';
import { freePort } from '../support/redisServer.ts';
import { buildDist, startDist, type Build, type DistProcess } from '../support/distProcess.ts';
import { socketOwner } from '../support/socketOwner.ts';
import * as testEnv from '../support/testEnv.ts';
import { pageConfigured } from '../support/events.ts';
import { startProjectorEnv } from '../support/projectorEnv.ts';
import { startPgCluster } from '../support/pgCluster.ts';

/** GET on a connection kept open, so the process that answered still holds it. */
const openRequest = (port: number, path: string, headers = '') =>
  new Promise<{ status: number; clientPort: number; close: () => void }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n${headers}\r\n`);
    });
    socket.once('error', reject);
    socket.once('data', (chunk: Buffer) => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0);
      resolve({ status, clientPort: socket.localPort ?? 0, close: () => socket.destroy() });
    });
  });

/** Opens connections until every pid in `expected` has answered one (200 each); returns who answered each. */
const answeringPids = async (port: number, expected: readonly number[]): Promise<(number | null)[]> => {
  const owners: (number | null)[] = [];
  const open: (() => void)[] = [];
  try {
    for (let i = 0; i < 40 && !expected.every((pid) => owners.includes(pid)); i++) {
      const request = await openRequest(port, '/openapi.json');
      open.push(request.close);
      expect(request.status).toBe(200);
      owners.push(await socketOwner(port, request.clientPort, expected));
    }
  } finally {
    for (const close of open) close();
  }
  return owners;
};

/** The arguments a process was started with (Linux). */
const commandLine = (pid: number): string[] =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the production build', () => {
  let build: Build;
  let t: testEnv.TestDatabase;
  const redis = testEnv.testRedis();
  const prefix = testEnv.freshRedisPrefix();
  const running: DistProcess[] = [];

  const serve = async (processes: number, env: Record<string, string> = {}) => {
    const [port, ingestPort] = [await freePort(), await freePort()];
    const server = startDist(build.main, ['serve'], {
      DATABASE_URL: t.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      INGEST_PORT: String(ingestPort),
      LOG_LEVEL: 'info',
      WEB_CONCURRENCY: String(processes),
      ...env,
    });
    running.push(server);
    const listening = await server.waitForLine((line) => line.msg === 'public API listening');
    return { server, port, ingestPort, pids: listening['pids'] as number[] | undefined };
  };

  beforeAll(async () => {
    [build, t] = await Promise.all([buildDist(), testEnv.freshDatabase()]);
  });
  afterAll(async () => {
    for (const { child } of running) child.kill('SIGKILL');
    await testEnv.dropRedisPrefix(redis, prefix);
    redis.disconnect();
    await t.close();
    await build.remove();
  });

  it('node dist/main.js serve answers 200 and exits 0 on SIGTERM', async () => {
    const { server, port, ingestPort } = await serve(1);
    expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ingestPort}/healthz`)).status).toBe(200);
    // The status page's scripts are the files `npm run build` made, not bundled by the process
    // (one per language; the unsuffixed one is the English one).
    for (const [path, file] of [
      ['page.js', 'page.en.js'],
      ['page.de.js', 'page.de.js'],
      ['page.pt-BR.js', 'page.pt-BR.js'],
    ]) {
      const script = await fetch(`http://127.0.0.1:${port}/static/page/v1/${path}`);
      const built = readFileSync(join(dirname(build.main), `src/statusPage/built/${file}`));
      expect(Buffer.from(await script.arrayBuffer()).equals(built), path).toBe(true);
    }
    const metrics = await (await fetch(`http://127.0.0.1:${ingestPort}/metrics`)).text();
    expect(metrics).toContain('\nlive_streams_open 0\n');
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('WEB_CONCURRENCY=2: two API processes answer, a killed one is replaced, SIGTERM drains all', async () => {
    const { server, port, ingestPort, pids = [] } = await serve(2);
    const primary = server.child.pid!;
    const [first, second] = pids;
    expect(pids).toHaveLength(2);
    expect(new Set([primary, first, second]).size).toBe(3);
    const before = await answeringPids(port, [first!, second!]);
    expect(new Set(before)).toEqual(new Set([first, second]));

    process.kill(first!, 'SIGKILL');
    const replaced = await server.waitForLine(
      (line) => line.msg === 'API process listening' && line.pid !== first && line.pid !== second,
    );
    expect(server.lines().find((line) => line.msg === 'API process exited; starting another')).toMatchObject({
      pid: primary,
      worker_pid: first,
      signal: 'SIGKILL',
    });
    const after = await answeringPids(port, [second!, replaced.pid]);
    expect(new Set(after)).toEqual(new Set([second, replaced.pid]));
    // Every API process, the replacement too, starts with the API's node flags; the primary as
    // it was started.
    for (const pid of [second!, replaced.pid])
      expect(commandLine(pid)).toEqual([process.execPath, ...API_NODE_FLAGS, build.main, 'serve']);
    expect(commandLine(primary)).toEqual([process.execPath, build.main, 'serve']);

    // The operator listener runs once, in the primary, and its metrics add up the living API
    // processes' counts (the killed one's went with it).
    const metrics = await (await fetch(`http://127.0.0.1:${ingestPort}/metrics`)).text();
    const served = [...before, ...after].filter((pid) => pid === second || pid === replaced.pid).length;
    expect(metrics).toContain(`\nhttp_requests_total{route="/openapi.json",status="200"} ${served}\n`);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect([second, replaced.pid].filter((pid) => isRunning(pid!))).toEqual([]);
  });

  it('WEB_CONCURRENCY=2: wrong tokens for a private page count once across the API processes', async () => {
    const env = await startProjectorEnv();
    try {
      await env.append(
        pageConfigured('vault', { plan: 'business', auth_token: 'vault-token-0123456789abcdef' }),
      );
      await env.project();
      const {
        server,
        port,
        pids = [],
      } = await serve(2, {
        DATABASE_URL: env.t.url,
        REDIS_PREFIX: env.prefix,
        TOKEN_FAILURES_MAX: '3',
      });
      const answers: { status: number; pid: number | null }[] = [];
      for (let i = 0; i < 8; i++) {
        const guess = await openRequest(
          port,
          '/api/status-pages/vault/incidents',
          `Authorization: Bearer guess-${String(i)}-0123456789abcdef\r\n`,
        );
        answers.push({ status: guess.status, pid: await socketOwner(port, guess.clientPort, pids) });
        guess.close();
      }
      expect(new Set(answers.map((answer) => answer.pid))).toEqual(new Set(pids)); // both processes answered
      expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
    } finally {
      await env.close();
    }
  });

  it('stays ready for reads, and answers them, while its PostgreSQL is stopped; /readyz names it', async () => {
    const env = await startProjectorEnv();
    const pg = await startPgCluster();
    try {
      await env.append(pageConfigured('open', { plan: 'pro' }));
      await env.project();
      const { port, ingestPort } = await serve(1, { DATABASE_URL: pg.url, REDIS_PREFIX: env.prefix });
      await pg.stop();
      const get = async (at: number, path: string) => {
        const res = await fetch(`http://127.0.0.1:${at}${path}`);
        return [res.status, await res.json()] as const;
      };
      expect(await get(ingestPort, '/readyz')).toEqual([503, { status: 'not ready', failing: ['postgres'] }]);
      expect(await get(ingestPort, '/readyz/reads')).toEqual([200, { status: 'ready' }]);
      expect(await get(port, '/api/status-pages/open/incidents')).toEqual([
        200,
        { incidents: [], page: 1, page_size: 20, total_pages: 0, total_items: 0 },
      ]);
    } finally {
      await pg.stop();
      await env.close();
    }
  });
});
