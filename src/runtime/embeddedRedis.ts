// `npm start` with no Redis: the machine's redis-server, run privately for this service: data in
// .data/redis (AOF on, so the read models survive a restart), noeviction (the read models and
// checkpoints must never be dropped), loopback only, on a free port.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import {
  freePort,
  logTail,
  spawnServer,
  stopLeftOver,
  waitUntilReady,
  type EmbeddedServer,
} from './embeddedProcess.ts';
import { INSTALL_REDIS, StartupError } from './startupErrors.ts';

const PROGRAM = 'redis-server';

/** The installed redis-server's version, or null when there is none on PATH. */
const redisServerVersion = (): string | null => {
  const result = spawnSync(PROGRAM, ['--version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  return /v=(\S+)/.exec(result.stdout)?.[1] ?? 'unknown';
};

const answers = async (url: string): Promise<boolean> => {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false; // not up yet, or still loading its AOF
  } finally {
    client.disconnect();
  }
};

/** Starts the private redis-server. @throws StartupError when none is installed or it fails. */
export const startEmbeddedRedis = async (dataDir: string, triedUrl: string): Promise<EmbeddedServer> => {
  const version = redisServerVersion();
  if (version === null)
    throw new StartupError(
      `Redis does not answer at ${triedUrl}, and redis-server is not installed to run one for this service.\n` +
        `Install it (npm start then runs it privately) or start one:\n${INSTALL_REDIS}\n` +
        'or set REDIS_URL to a server that runs.',
      69,
    );
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, 'redis.pid');
  await stopLeftOver(pidFile, PROGRAM, 'SIGTERM');
  const port = await freePort();
  const logFile = join(dir, 'redis.log');
  // Settings as arguments: a config file of the machine is not read, nothing else is changed.
  const settings = {
    port: String(port),
    bind: '127.0.0.1',
    'protected-mode': 'yes',
    dir,
    pidfile: pidFile,
    appendonly: 'yes',
    appendfsync: 'everysec',
    save: '',
    'maxmemory-policy': 'noeviction',
    daemonize: 'no',
  };
  const args = Object.entries(settings).flatMap(([name, value]) => [`--${name}`, value]);
  const server = spawnServer(PROGRAM, args, logFile);
  const url = `redis://127.0.0.1:${String(port)}`;
  if (!(await waitUntilReady(server, () => answers(url), 60_000))) {
    await server.stop('SIGKILL');
    throw new StartupError(
      `The private redis-server (data in ${dir}) did not start:\n  ${logTail(logFile).split('\n').join('\n  ')}\n` +
        `Start a Redis instead:\n${INSTALL_REDIS}\nor set REDIS_URL.`,
      69,
    );
  }
  return {
    url,
    description: `Redis ${version}, run privately: 127.0.0.1:${String(port)}, data in ${dir} (AOF, noeviction)`,
    stop: () => server.stop('SIGTERM'), // redis-server flushes the AOF and exits
    signal: () => server.signal('SIGTERM'),
  };
};
