// The Redis a process talks to: one server (ioredis Redis) or a Redis Cluster (ioredis Cluster).
// Both answer the same commands; what differs — pipelines across slots, SCAN, duplicating a
// connection for pub/sub — is handled here and in reads.ts and scanKeys.ts, nowhere else.
import { Cluster, type Redis } from 'ioredis';

export type RedisClient = Redis | Cluster;

export const isCluster = (client: RedisClient): client is Cluster => client instanceof Cluster;

// ioredis sends SUBSCRIBE at once while a connection is still in its handshake; a later handshake
// command (CLIENT SETINFO, the INFO of the ready check) is then refused in subscriber mode, the
// failed ready check reconnects, and messages published meanwhile are lost. Under load that window
// is wide: a subscriber's handshake is CLIENT SETNAME alone.
const SUBSCRIBER_HANDSHAKE = { enableReadyCheck: false, disableClientInfo: true } as const;

/**
 * A connection of its own for SUBSCRIBE/PSUBSCRIBE, with the client's settings, never giving up
 * on a command (a subscriber waits out an outage), and named so an operator sees it in CLIENT LIST.
 * On a cluster it subscribes on one node: PUBLISH reaches every node of a Redis Cluster. It
 * connects at once even when the client it copies connects lazily.
 */
export const subscriberOf = (
  client: RedisClient,
  name: string,
  options: Readonly<{ autoResubscribe?: boolean }> = {},
): RedisClient =>
  isCluster(client)
    ? client.duplicate(undefined, {
        enableOfflineQueue: true,
        lazyConnect: false,
        redisOptions: {
          ...client.options.redisOptions,
          ...options,
          maxRetriesPerRequest: null,
          connectionName: name,
          ...SUBSCRIBER_HANDSHAKE,
        },
      })
    : client.duplicate({
        ...options,
        lazyConnect: false,
        maxRetriesPerRequest: null,
        connectionName: name,
        ...SUBSCRIBER_HANDSHAKE,
      });
