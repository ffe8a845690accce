// A redis-server of the test's own, on a free port, in a temporary directory: the tests that stop,
// freeze, kill or flush Redis do it to this one, never to the shared server.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

export type RedisServer = Readonly<{
  url: string;
  port: number;
  /** SIGSTOP: the server keeps its connections but answers nothing. */
  freeze: () => void;
  /** SIGCONT after freeze. */
  thaw: () => void;
  /** SIGKILL, then a new server on the same port and directory (it reloads its AOF, if any). */
  restart: () => Promise<void>;
  /** SIGKILL: nothing listens on the port until `start`. */
  kill: () => Promise<void>;
  /** A new server on the same port and directory after `kill` (it reloads its AOF, if any); none while one runs. */
  start: () => Promise<void>;
  /** A client for the test's own use (not the code under test). */
  admin: () => Redis;
  stop: () => Promise<void>;
}>;

type RedisServerOptions = Readonly<{
  /** appendonly yes with appendfsync always: a restart loses nothing acknowledged. */
  aof?: boolean;
  /** Extra `--name value` settings, e.g. { 'busy-reply-threshold': '100' }. */
  settings?: Readonly<Record<string, string>>;
}>;

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (typeof address === 'object' && address !== null) resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });

const waitUntilAnswering = async (url: string): Promise<void> => {
  for (let tries = 0; tries < 200; tries += 1) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      // not up yet (or still loading its AOF)
    } finally {
      probe.disconnect();
    }
    await sleep(50);
  }
  throw new Error(`redis-server at ${url} did not start`);
};

export const startRedisServer = async (options: RedisServerOptions = {}): Promise<RedisServer> => {
  const dir = await mkdtemp(join(tmpdir(), 'sp-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction',
    ...(options.aof ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => [`--${name}`, value]),
  ];
  let child: ChildProcess;
  const launch = async () => {
    child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitUntilAnswering(url);
  };
  const killed = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await launch();
  const admins: Redis[] = [];
  return {
    url,
    port,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    restart: async () => {
      await killed();
      await launch();
    },
    kill: killed,
    start: async () => {
      if (child.exitCode === null && child.signalCode === null) return; // still running
      await launch();
    },
    admin: () => {
      const client = new Redis(url, { maxRetriesPerRequest: null });
      client.on('error', () => undefined);
      admins.push(client);
      return client;
    },
    stop: async () => {
      for (const client of admins) client.disconnect();
      child.kill('SIGCONT');
      await killed();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
