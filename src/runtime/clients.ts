// The process's connections, built once from the config and passed down (no globals).
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { createDb, type DatabasePool } from '../eventLog/createDb.ts';
import { createLogger, type Logger } from '../shared/logger.ts';

export type Clients = Readonly<{
  db: DatabasePool;
  /** Read models and probes. */
  redis: Redis;
  /** BullMQ needs its own connection with maxRetriesPerRequest: null. */
  queueRedis: Redis;
  log: Logger;
  close: () => Promise<void>;
}>;

export const createClients = async (config: Config, name: string): Promise<Clients> => {
  const log = createLogger(config.logLevel, name);
  const db = await createDb(config.databaseUrl);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
  const queueRedis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  for (const client of [redis, queueRedis])
    client.on('error', (err) => log.warn({ err: err.message }, 'redis error'));
  return {
    db,
    redis,
    queueRedis,
    log,
    close: async () => {
      redis.disconnect();
      queueRedis.disconnect();
      await db.end();
    },
  };
};
