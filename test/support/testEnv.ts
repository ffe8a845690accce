// Per-file isolation: a fresh database cloned from the migrated template, and a Redis key
// prefix of its own (so no FLUSHALL between files). Redis is one server, or in the `cluster`
// project a Redis Cluster (test/support/clusterSetup.ts), reached through the product's factory.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createDb, type Db } from '../../src/eventLog/createDb.ts';
import { withDatabase } from '../../src/eventLog/migrate.ts';
import { isCluster, type RedisClient } from '../../src/store/redisClient.ts';
import { scanKeys } from '../../src/store/scanKeys.ts';
import { createRedis, type RedisTarget } from '../../src/runtime/clients.ts';

export type TestDatabase = { url: string; db: Db; close: () => Promise<void> };

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

/** The cluster's nodes in the `cluster` project, else undefined. */
export const testClusterNodes = (): string | undefined => inject('redisClusterNodes') || undefined;

export const testRedisTarget = (): RedisTarget => {
  const nodes = testClusterNodes();
  return {
    redisUrl: inject('redisUrl'),
    redisClusterNodes: nodes ? loadConfig({ REDIS_CLUSTER_NODES: nodes }).redisClusterNodes : null,
  };
};

export const testRedis = (): RedisClient => createRedis(testRedisTarget(), 'queue');

/** Deletes every key under a test prefix (called when a file ends), one UNLINK per hash tag. */
export const dropRedisPrefix = async (redis: RedisClient, prefix: string): Promise<void> => {
  const bySlot = new Map<string, string[]>();
  for (const key of await scanKeys(redis, `${prefix}:*`)) {
    const tag = /\{[^}]+\}/.exec(key)?.[0] ?? key;
    bySlot.set(tag, [...(bySlot.get(tag) ?? []), key]);
  }
  for (const keys of bySlot.values())
    for (let i = 0; i < keys.length; i += 500) await redis.unlink(...keys.slice(i, i + 500));
};

/** CLIENT LIST of every server behind `redis` (each master of a cluster), as one text. */
export const clientList = async (redis: RedisClient): Promise<string> => {
  const servers = isCluster(redis) ? redis.nodes('master') : [redis];
  return (await Promise.all(servers.map(async (server) => String(await server.client('LIST'))))).join('\n');
};

/**
 * Whether a CLIENT LIST line is a subscribed connection named `name`. On a cluster, the client
 * subscribes on a connection of its own named `ioredis-cluster(subscriber):<name>` (its other
 * node connections carry `name` too, but subscribe to nothing).
 */
export const isSubscriberNamed = (line: string, name: string): boolean =>
  (line.includes(` name=${name} `) || line.includes(` name=ioredis-cluster(subscriber):${name} `)) &&
  / p?sub=[1-9]/.test(line);

/** A Redis client for a port nothing listens on: every command fails at once (an outage). */
export const redisAway = (): Redis => {
  const away = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  away.on('error', () => undefined);
  return away;
};
