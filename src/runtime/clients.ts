// The process's connections, built once from the config and passed down (no globals).
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { createDb, type DatabasePool } from '../eventLog/createDb.ts';
import { createLogger, type Logger } from '../shared/logger.ts';

/**
 * How long one Redis command of the API may take. A request makes at most two rounds of commands
 * (the cached active-version pointer, then one read), so even a frozen Redis gets an answer, 503,
 * well within 2 s; a healthy Redis answers in well under a millisecond.
 */
export const READ_COMMAND_TIMEOUT_MS = 500;

export type Clients = Readonly<{
  db: DatabasePool;
  /** The projector's: its scripts may run for a while, so no command timeout. */
  redis: Redis;
  /** The API's reads and the probes: every command bounded by READ_COMMAND_TIMEOUT_MS. */
  readRedis: Redis;
  /** BullMQ needs its own connection with maxRetriesPerRequest: null. */
  queueRedis: Redis;
  log: Logger;
  close: () => Promise<void>;
}>;

/** The client the API reads read models with: a stalled Redis fails commands, never hangs them. */
export const createReadRedis = (url: string): Redis =>
  new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: READ_COMMAND_TIMEOUT_MS });

export const createClients = async (config: Config, name: string): Promise<Clients> => {
  const log = createLogger(config.logLevel, name);
  const db = await createDb(config.databaseUrl);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
  const readRedis = createReadRedis(config.redisUrl);
  const queueRedis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  for (const client of [redis, readRedis, queueRedis])
    client.on('error', (err) => log.warn({ err: err.message }, 'redis error'));
  return {
    db,
    redis,
    readRedis,
    queueRedis,
    log,
    close: async () => {
      for (const client of [redis, readRedis, queueRedis]) client.disconnect();
      await db.end();
    },
  };
};
