// An isolated environment for a benchmark: a fresh database `sp_bench_<random>` on the server of
// DATABASE_URL (or TEST_DATABASE_URL), migrated with the production migrations, and a Redis
// prefix of its own; both removed by `close()`.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import { createDb, type Db } from '../src/eventLog/createDb.ts';
import { migrate, withDatabase } from '../src/eventLog/migrate.ts';
import type { ProjectorDeps } from '../src/projector/runPartition.ts';

export type BenchEnv = Readonly<{
  name: string;
  url: string;
  db: Db;
  redisUrl: string;
  redis: Redis;
  prefix: string;
  close: () => Promise<void>;
}>;

export const serverUrl = (): string =>
  process.env['DATABASE_URL'] ??
  process.env['TEST_DATABASE_URL'] ??
  'postgres://root@127.0.0.1:5432/postgres';
export const redisUrl = (): string =>
  process.env['REDIS_URL'] ?? process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export const adminQuery = async (sqlText: string): Promise<void> => {
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl(), 'postgres') });
  await admin.connect();
  try {
    await admin.query(sqlText);
  } finally {
    await admin.end();
  }
};

/** Deletes every key under `prefix:` and the queue keys `{prefix-q}`. */
export const dropRedisPrefix = async (redis: Redis, prefix: string): Promise<void> => {
  for (const pattern of [`${prefix}:*`, `{${prefix}-q}:*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 5000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  }
};

export const startBenchEnv = async (options: { poolSize?: number } = {}): Promise<BenchEnv> => {
  const suffix = randomBytes(4).toString('hex');
  const name = `sp_bench_${suffix}`;
  const url = withDatabase(serverUrl(), name);
  await migrate(url);
  const db = await createDb(url, { maximumPoolSize: options.poolSize ?? 10 });
  const redis = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const prefix = `spb${suffix}`;
  return {
    name,
    url,
    db,
    redisUrl: redisUrl(),
    redis,
    prefix,
    close: async () => {
      await db.end();
      await dropRedisPrefix(redis, prefix);
      redis.disconnect();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
};

/** The in-process projector of a benchmark (initial builds, rebuilds), silent. */
export const projectorDeps = (env: BenchEnv): ProjectorDeps => ({
  db: env.db,
  redis: env.redis,
  clock: () => new Date(),
  urls: { baseUrl: 'http://localhost:3000', pageUrlTemplate: '{base_url}/s/{slug}' },
  batchSize: 5_000,
  log: pino({ level: 'silent' }),
});
