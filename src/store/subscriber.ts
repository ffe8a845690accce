// The one pub/sub connection of an API process, shared by every listener of model announcements;
// it reports when it is live, so listeners know when messages may have been missed.
import { subscriberOf, type RedisClient } from './redisClient.ts';
import type { Logger } from '../shared/logger.ts';

type Listener = (channel: string, message: string) => void;

export type Subscriber = ReturnType<typeof createSubscriber>;

export const createSubscriber = (redis: RedisClient, name: string, log: Logger) => {
  const channels = new Map<string, Listener[]>();
  const patterns = new Map<string, Listener[]>();
  const downListeners: (() => void)[] = [];
  const liveListeners: (() => void)[] = [];
  let connection: RedisClient | null = null;
  let live = false;
  let closed = false;
  let waiting: (() => void)[] = [];

  const goDown = () => {
    if (!live) return;
    live = false;
    for (const listener of downListeners) listener();
  };

  const subscribeAll = async (conn: RedisClient): Promise<void> => {
    try {
      if (channels.size > 0) await conn.subscribe(...channels.keys());
      if (patterns.size > 0) await conn.psubscribe(...patterns.keys());
    } catch (error) {
      log.warn({ err: error }, 'subscriber: subscribe failed');
      return; // the connection's next `ready` tries again
    }
    if (conn !== connection || conn.status !== 'ready') return;
    live = true;
    for (const listener of liveListeners) listener();
    const done = waiting;
    waiting = [];
    for (const resolve of done) resolve();
  };

  const connect = (): RedisClient => {
    if (connection !== null) return connection;
    // Named, so an operator sees the one subscriber of each API process in CLIENT LIST.
    // Resubscribed on `ready` below, not by the client, so `live` is known exactly.
    const conn = subscriberOf(redis, name, { autoResubscribe: false });
    connection = conn;
    conn.on('error', (error: unknown) => log.warn({ err: error }, 'subscriber error'));
    conn.on('ready', () => void subscribeAll(conn));
    conn.on('close', goDown);
    conn.on('reconnecting', goDown);
    conn.on('message', (channel: string, message: string) => {
      for (const listener of channels.get(channel) ?? []) listener(channel, message);
    });
    conn.on('pmessage', (pattern: string, channel: string, message: string) => {
      for (const listener of patterns.get(pattern) ?? []) listener(channel, message);
    });
    return conn;
  };

  const add = (map: Map<string, Listener[]>, key: string, listener: Listener, pattern: boolean) => {
    const known = map.get(key);
    map.set(key, [...(known ?? []), listener]);
    // Registered while live (listeners normally register before the first `ready`): subscribe now.
    const conn = connection;
    if (known === undefined && live && conn !== null)
      void (pattern ? conn.psubscribe(key) : conn.subscribe(key)).catch((error: unknown) =>
        log.warn({ err: error }, 'subscriber: subscribe failed'),
      );
  };

  return {
    /** Calls `listener(channel, message)` for every message on `channel`. */
    subscribe: (channel: string, listener: Listener): void => add(channels, channel, listener, false),
    /** Calls `listener(channel, message)` for every message on a channel matching `pattern`. */
    psubscribe: (pattern: string, listener: Listener): void => add(patterns, pattern, listener, true),
    /** Called when the connection drops: messages may be lost until `onLive`. */
    onDown: (listener: () => void): void => void downListeners.push(listener),
    /** Called each time every channel is subscribed (again). */
    onLive: (listener: () => void): void => void liveListeners.push(listener),
    /** True while every registered channel is subscribed on a connected connection. */
    live: (): boolean => live,
    /** Connects (on first use) and resolves once every registered channel is subscribed. */
    ready: (): Promise<void> => {
      connect();
      if (live || closed) return Promise.resolve();
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: async (): Promise<void> => {
      closed = true;
      const conn = connection;
      connection = null;
      goDown();
      for (const resolve of waiting) resolve();
      waiting = [];
      if (conn !== null) await conn.quit().catch(() => conn.disconnect());
    },
  };
};
