// The service as deployed behind a proxy: `node dist/main.js serve` with two API processes
// (WEB_CONCURRENCY=2) and TRUST_PROXY=loopback, on a redis-server of the test's own (so it can be
// stopped), with a public page and a private one projected, and email sign-up on through a local
// SMTP server. Readers reach it from chosen loopback addresses (127.0.0.1, 127.0.0.2, ...), as
// different clients would.
import http from 'node:http';
import { buildDist, startDist, type Build, type DistProcess, type LogLine } from './distProcess.ts';
import { check, monitorConfigured, pageConfigured } from './events.ts';
import { startProjectorEnv, type ProjectorEnv } from './projectorEnv.ts';
import { freePort, startRedisServer, type RedisServer } from './redisServer.ts';
import { startSmtp, type TestSmtp } from './smtpServer.ts';

export const PRIVATE_TOKEN = 'vault-token-0123456789abcdef';
/** A live stream's cap per client address and API process, small so a test reaches it. */
export const STREAMS_PER_CLIENT = 2;

export type Answer = Readonly<{ status: number; body: string; headers: http.IncomingHttpHeaders }>;

type From = Readonly<{ from?: string; headers?: Record<string, string> }>;
type Sent = From & Readonly<{ method?: string; body?: string }>;

/** `method` (GET unless given) `url` from the loopback address `from` (127.0.0.1 unless given), on a new connection. */
export const send = (
  url: string,
  { from = '127.0.0.1', headers = {}, method = 'GET', body }: Sent = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const options = { method, localAddress: from, headers: { ...headers, ...length }, agent: false };
    const req = http.request(url, options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.once('error', reject);
    req.end(body);
  });

export const get = (url: string, from: From = {}): Promise<Answer> => send(url, from);

export type OpenStream = Readonly<{ status: number; close: () => void }>;

/** Opens a live stream from `from` and keeps it open until `close` (the answer's status once known). */
export const openStream = (url: string, from: string): Promise<OpenStream> =>
  new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress: from, agent: false }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.once('error', (error) => (req.destroyed ? undefined : reject(error)));
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The mail settings of the API processes (the SMTP server's address aside). */
export const MAIL_FROM = 'Acme Status <status@mail.test>';

export type Topology = Readonly<{
  /** The API's public port, for the proxy's upstream. */
  apiPort: number;
  apiUrl: string;
  redis: RedisServer;
  env: ProjectorEnv;
  /** Where the API processes send their mail. */
  smtp: TestSmtp;
  /** The API processes' log lines so far: one per request (LOG_REQUESTS=all). */
  apiLog: () => readonly LogLine[];
  /** Resolves once the API's log holds a line that satisfies `match`; rejects after `timeoutMs`. */
  waitForApiLine: (match: (line: LogLine) => boolean, timeoutMs: number) => Promise<LogLine>;
  project: (...events: object[]) => Promise<void>;
  close: () => Promise<void>;
}>;

export const startTopology = async (): Promise<Topology> => {
  const redis = await startRedisServer({ aof: true });
  const smtp = await startSmtp();
  let build: Build | undefined;
  let api: DistProcess | undefined;
  let env: ProjectorEnv | undefined;
  const close = async () => {
    api?.child.kill('SIGKILL');
    await api?.exited;
    await env?.close().catch(() => undefined);
    await redis.stop();
    await smtp.close();
    await build?.remove();
  };
  try {
    env = await startProjectorEnv({ now: new Date().toISOString(), redisUrl: redis.url });
    const projected = env;
    const project = async (...events: object[]) => {
      await projected.append(...events);
      await projected.project();
    };
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    await project(
      pageConfigured('acme', { plan: 'growth' }),
      monitorConfigured('acme', 1, { name: 'API' }),
      check('acme', 1, minuteAgo, 'up'),
      {
        type: 'incident.opened',
        page: 'acme',
        at: minuteAgo,
        data: { incident_id: 'i1', title: 'Slow API', message: 'Looking', components: ['API'] },
      },
      pageConfigured('vault', { plan: 'business', auth_token: PRIVATE_TOKEN }),
      monitorConfigured('vault', 2, { name: 'Vault API' }),
      check('vault', 2, minuteAgo, 'up'),
      {
        type: 'incident.opened',
        page: 'vault',
        at: minuteAgo,
        data: { incident_id: 'v1', title: 'Vault secret incident', message: 'Private', components: [] },
      },
    );
    build = await buildDist();
    const [apiPort, ingestPort] = [await freePort(), await freePort()];
    api = startDist(build.main, ['serve'], {
      DATABASE_URL: env.t.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: env.prefix,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      INGEST_PORT: String(ingestPort),
      LOG_LEVEL: 'info',
      WEB_CONCURRENCY: '2',
      TRUST_PROXY: 'loopback', // as docs/deploy.md says for a proxy on the same machine
      LIVE_STREAMS_PER_CLIENT: String(STREAMS_PER_CLIENT),
      MAIL_URL: smtp.url,
      MAIL_FROM,
      LOG_REQUESTS: 'all', // so a test can tell which requests reached the API, not a proxy's cache
    });
    await api.waitForLine((line) => line.msg === 'public API listening');
    const { lines, waitForLine } = api;
    return {
      apiPort,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      redis,
      env,
      smtp,
      apiLog: lines,
      waitForApiLine: waitForLine,
      project,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
};
