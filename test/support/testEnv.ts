// Per-file isolation: a fresh database cloned from the migrated template, and a Redis key
// prefix of its own (so no FLUSHALL between files).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, type DatabasePool } from '../../src/eventLog/createDb.ts';
import { withDatabase } from '../../src/eventLog/migrate.ts';

export type TestDatabase = { url: string; db: DatabasePool; close: () => Promise<void> };

export const freshDatabase = async (): Promise<TestDatabase> => {
  const server = inject('pgServerUrl');
  const name = `sp_t${inject('runId')}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(server, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('templateDb')}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(server, name);
  const db = await createDb(url);
  return { url, db, close: () => db.end() };
};

export const freshRedisPrefix = (): string => `t${randomBytes(5).toString('hex')}`;

export const testRedis = (): Redis => new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });

/** Deletes every key under a test prefix (called when a file ends). */
export const dropRedisPrefix = async (redis: Redis, prefix: string): Promise<void> => {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
};
