// The process's connections, built once from the config and passed down (no globals). Every Redis
// client of every command comes from createRedis: one server (REDIS_URL) or a Redis Cluster
// (REDIS_CLUSTER_NODES), the rest of the code does not care which (src/store/redisClient.ts).
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../config.ts';
import { createDb, type Db } from '../eventLog/createDb.ts';
import type { RedisClient } from '../store/redisClient.ts';
import { createLogger, type Logger } from '../shared/logger.ts';

/**
 * How long one Redis command of the API may take. A request makes at most two rounds of commands
 * (the cached active-version pointer, then one read), so even a frozen Redis gets an answer, 503,
 * well within 2 s; a healthy Redis answers in well under a millisecond.
 */
const READ_COMMAND_TIMEOUT_MS = 500;

export type Clients = Readonly<{
  db: Db;
  /** The projector's: its scripts may run for a while, so no command timeout. */
  redis: RedisClient;
  /** The API's reads and the probes: every command bounded by READ_COMMAND_TIMEOUT_MS. */
  readRedis: RedisClient;
  /** BullMQ needs its own connection with maxRetriesPerRequest: null. */
  queueRedis: RedisClient;
  log: Logger;
  close: () => Promise<void>;
}>;

/** Where Redis is: the part of the config createRedis needs. */
export type RedisTarget = Pick<Config, 'redisUrl' | 'redisClusterNodes'>;

/**
 * Milliseconds before the read client's `times`-th reconnection try. ioredis's default grows to 2 s:
 * after an outage the API would answer 503 for up to 2 s more; at most 500 ms, the edges in front
 * refresh within a second of Redis returning (docs/deploy.md, "Behind a CDN or a shared cache").
 */
export const readReconnectDelay = (times: number): number => Math.min(times * 50, 500);

/** What each use needs of its connection. */
type RedisRole = 'projector' | 'read' | 'queue';

const roleOptions: Record<RedisRole, RedisOptions> = {
  projector: { maxRetriesPerRequest: 2 },
  // A stalled Redis fails the API's commands, never hangs them.
  read: {
    maxRetriesPerRequest: 1,
    commandTimeout: READ_COMMAND_TIMEOUT_MS,
    retryStrategy: readReconnectDelay,
  },
  queue: { maxRetriesPerRequest: null },
};

/**
 * The one factory of Redis clients, with the role's options. No auto-pipelining on a cluster: a
 * slot move would make ioredis re-send a whole pipeline (docs/operations.md, "Redis Cluster").
 */
export const createRedis = (target: RedisTarget, role: RedisRole): RedisClient => {
  const options = roleOptions[role];
  if (target.redisClusterNodes === null) return new Redis(target.redisUrl, options);
  return new Cluster(
    target.redisClusterNodes.map((node) => ({ host: node.host, port: node.port })),
    {
      redisOptions: options,
      // A command waiting for the cluster to be (re)discovered has no command timeout yet: the
      // API's reads fail at once then (503) rather than wait.
      enableOfflineQueue: role !== 'read',
      // A script or multi-key read of a slot being moved gets TRYAGAIN until the page's keys are
      // on one master: the API retries for about 400 ms, then answers 503 with Retry-After.
      ...(role === 'read' ? { retryDelayOnTryAgain: 50, maxRedirections: 8 } : {}),
    },
  );
};

/** The client the API reads read models with (the probes' too). */
export const createReadRedis = (target: RedisTarget): RedisClient => createRedis(target, 'read');

export const createClients = async (config: Config, name: string): Promise<Clients> => {
  const log = createLogger(config.logLevel, name, config.logFormat);
  const db = await createDb(config.databaseUrl);
  const redis = createRedis(config, 'projector');
  const readRedis = createReadRedis(config);
  const queueRedis = createRedis(config, 'queue');
  for (const client of [redis, readRedis, queueRedis])
    client.on('error', (err: Error) => log.warn({ err: err.message }, 'redis error'));
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
