// Before anything starts: is PostgreSQL there and does it let us in, is Redis there, does it
// keep every key (noeviction)? Each question gets an answer within a few seconds, so a missing
// server ends the process with a clear message (startupErrors.ts) rather than retries and traces.
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Config } from '../config.ts';
import { withDatabase } from '../eventLog/migrate.ts';
import { requireNoEviction, RedisEvicts } from '../store/evictionPolicy.ts';
import {
  errorCode,
  isUnreachable,
  postgresFailure,
  redisFailure,
  shownUrl,
  StartupError,
} from './startupErrors.ts';

const CONNECT_TIMEOUT_MS = 3000;

/** Rejects when `work` takes longer than CONNECT_TIMEOUT_MS: a frozen server accepts a connection, then says nothing. */
const withinDeadline = async <T>(work: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`timed out after ${String(CONNECT_TIMEOUT_MS / 1000)} s`));
    }, CONNECT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
};

const tryPostgres = async (url: string): Promise<void> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined); // a dropped connection: the query below fails instead
  try {
    await withinDeadline(client.connect().then(() => client.query('SELECT 1')));
  } finally {
    void client.end().catch(() => undefined); // not awaited: a frozen server would never confirm it
  }
};

/**
 * Can we log in to the database of `url` (or, when it does not exist yet, to `postgres` to create
 * it; migrate.ts does that)? @throws StartupError
 */
const requirePostgres = async (url: string, variableSet: boolean): Promise<void> => {
  try {
    await tryPostgres(url);
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw postgresFailure(error, url, variableSet);
    try {
      await tryPostgres(withDatabase(url, 'postgres'));
    } catch (inner) {
      throw postgresFailure(inner, url, variableSet);
    }
    // It is created by migrate(); a missing CREATEDB is reported from there (main.ts).
  }
};

/** True when nothing at all answers at `url` (then `npm start` may run a server of its own). */
export const postgresAbsent = async (url: string): Promise<boolean> => {
  try {
    await tryPostgres(url);
    return false;
  } catch (error) {
    return isUnreachable(error);
  }
};

const probeClient = (url: string) => {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null, // one try: the answer is the point
    enableOfflineQueue: false,
  });
  let lastError: Error | null = null;
  client.on('error', (error: Error) => (lastError = error));
  return { client, lastError: () => lastError };
};

const withRedis = async <T>(url: string, use: (client: Redis) => Promise<T>): Promise<T> => {
  const { client, lastError } = probeClient(url);
  try {
    return await withinDeadline(client.connect().then(() => use(client)));
  } catch (error) {
    // ioredis reports a refused AUTH on the 'error' event and a closed connection to the caller.
    throw lastError() ?? error;
  } finally {
    client.disconnect();
  }
};

export const redisAbsent = async (url: string): Promise<boolean> => {
  try {
    await withRedis(url, (client) => client.ping());
    return false;
  } catch (error) {
    return isUnreachable(error) || /connection is closed/i.test((error as Error).message);
  }
};

/**
 * Redis answers (every node of a cluster), lets us in, and, for a process that projects,
 * keeps every key. @throws StartupError
 */
const requireRedis = async (config: Config, options: { projects: boolean }): Promise<void> => {
  const urls = config.redisClusterNodes
    ? config.redisClusterNodes.map(
        (node) => `redis://${node.host.includes(':') ? `[${node.host}]` : node.host}:${String(node.port)}`,
      )
    : [config.redisUrl];
  for (const url of urls) {
    try {
      await withRedis(url, async (client) => {
        await client.ping();
        // A cluster's masters are checked by the workers themselves (evictionPolicy.ts).
        if (options.projects && !config.redisClusterNodes) await requireNoEviction(client);
      });
    } catch (error) {
      if (error instanceof RedisEvicts)
        throw new StartupError(`Redis at ${shownUrl(url)}: ${error.message}`, 78);
      throw redisFailure(error, url);
    }
  }
};

/** Both servers, as `serve` (no projection) or `work` and `start` (projection) need them. */
export const requireServers = async (
  config: Config,
  options: { projects: boolean; databaseUrlSet: boolean },
): Promise<void> => {
  await requirePostgres(config.databaseUrl, options.databaseUrlSet);
  await requireRedis(config, options);
};

/** What each command needs before it runs; `start` decides itself (embeddedServers.ts). */
export const preflightCommand = async (name: string, config: Config, env = process.env): Promise<void> => {
  const databaseUrlSet = Boolean(env['DATABASE_URL']);
  if (name === 'start') return;
  if (name === 'migrate') return requirePostgres(config.databaseUrl, databaseUrlSet);
  await requireServers(config, { projects: name === 'work', databaseUrlSet });
};

/** A PostgreSQL error (SQLSTATE) that escaped, e.g. a permission a migration lacked. */
export const explainPostgresError = (error: unknown, config: Config): StartupError | null => {
  const code = errorCode(error);
  const refused = code === '42501' || code === '3D000' || code?.startsWith('28');
  return refused ? postgresFailure(error, config.databaseUrl, true) : null;
};
