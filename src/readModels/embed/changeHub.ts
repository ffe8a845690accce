// Fan-out of embed changes to this process's live streams: one read per changed page, whatever
// the number of streams.
import type { RedisClient } from '../../store/redisClient.ts';
import { systemClock, type Clock } from '../../shared/clock.ts';
import type { Logger } from '../../shared/logger.ts';
import { MINUTE_MS, floorTo } from '../../shared/time.ts';
import { createPageLocator } from '../access/pageGate.ts';
import type { EmbedStatusQuery } from '../../http/schemas.ts';
import { embedBody, needsSeries, withFigures, type SeriesFigures } from './embedBody.ts';
import { createActiveVersionReader } from '../../store/control/activeVersionReader.ts';
import { changesPattern } from '../../../projections/store/control/keys.ts';
import { parsePageChange } from '../../../projections/store/changes.ts';
import { createSubscriber, type Subscriber } from '../../store/subscriber.ts';
import { createSubscriptionReads, type EmbedStreamRead } from '../subscriptionReads.ts';
import { streamRefusal } from './streamAccess.ts';
import { eventId, statusEvent, variantOf, writeEvent, type StreamClient } from './streamClient.ts';
import { createStreamSlots, defaultStreamLimits, type StreamLimitSettings } from './streamLimits.ts';

type ChangeHubDeps = Readonly<{
  redis: RedisClient;
  prefix: string;
  log: Logger;
  /** Overrides the limits' heartbeat interval (tests). */
  heartbeatMs?: number;
  /** The process's shared subscriber; without one the hub opens (and closes) its own. */
  subscriber?: Subscriber;
  /** Caps, unsent-bytes bound, lifetime and hub wait (streamLimits.ts); the defaults otherwise. */
  limits?: StreamLimitSettings;
  /** The instant rtm and upd are computed for (tests pin it). */
  clock?: Clock;
}>;

// A stream at its lifetime's end is told to reconnect after 1-10 s: streams opened together
// (a herd after an outage) come back spread out, and resume by Last-Event-ID.
const reconnectHint = (): string => `retry: ${1000 + Math.floor(Math.random() * 9000)}\n\n`;

type StreamSource = EmbedStreamRead & Readonly<{ figures: SeriesFigures | null; now: number }>;

/** The event a stream of this variant would get; null while the embed is not rendered. */
const streamBody = (source: StreamSource, query: EmbedStatusQuery) => {
  try {
    const id = eventId({ ...source, minute: floorTo(source.now, MINUTE_MS) }, query);
    return { id, event: statusEvent(id, embedBody(source, query)) };
  } catch {
    return null; // a part is missing (models being rebuilt): wait for the next change
  }
};

const anyNeedsSeries = (targets: Iterable<StreamClient>): boolean => {
  for (const client of targets) if (needsSeries(client.query)) return true;
  return false;
};

export const createChangeHub = (deps: ChangeHubDeps) => {
  const reads = createSubscriptionReads(deps.redis);
  const locate = createPageLocator(createActiveVersionReader(deps.redis, deps.prefix), deps.prefix);
  const clients = new Map<string, Set<StreamClient>>();
  const refreshing = new Map<string, boolean>(); // slug → another change came in meanwhile
  const seen = new Map<string, number>();
  let heartbeat: NodeJS.Timeout | null = null;
  let size = 0;
  const limits = deps.limits ?? defaultStreamLimits;
  const slots = createStreamSlots(limits);
  const clock = deps.clock ?? systemClock;
  // rtm and upd move with the minute: streams showing them are refreshed when it turns.
  let minuteTimer: NodeJS.Timeout | null = null;
  const armMinute = () => {
    const now = clock().getTime();
    minuteTimer = setTimeout(
      () => {
        minuteTimer = null;
        let armed = false;
        for (const [slug, targets] of clients)
          if (anyNeedsSeries(targets)) {
            armed = true;
            void refresh(slug);
          }
        if (armed) armMinute();
      },
      floorTo(now, MINUTE_MS) + MINUTE_MS - now,
    );
    minuteTimer.unref();
  };

  /** Takes a stream out of the hub: nothing is written to it from now on. */
  const forget = (client: StreamClient): void => {
    const set = clients.get(client.slug);
    if (set === undefined || !set.delete(client)) return;
    size -= 1;
    if (set.size === 0) clients.delete(client.slug);
    if (size === 0 && heartbeat !== null) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  };

  /**
   * Ends a stream, once. It leaves the hub at once, not at `close`: a client that is not reading
   * keeps the response open until its unsent bytes drain or the socket times out.
   */
  const end = (client: StreamClient, last?: string): void => {
    forget(client);
    client.res.end(last);
  };

  /** Drops a stream whose client does not read: its unsent bytes would grow without a bound. */
  const overfull = (client: StreamClient): boolean => {
    if (client.res.writableLength <= limits.maxUnsentBytes) return false;
    forget(client);
    client.res.destroy();
    return true;
  };

  /** Sends the stored embed to every stream of the page whose body has a newer id; ends refused ones. */
  const deliver = (read: EmbedStreamRead, targets: Iterable<StreamClient>) => {
    const source = withFigures(read, read.instant);
    const bodies = new Map<string, { id: number; event: Buffer } | null>();
    for (const client of targets) {
      if (streamRefusal(read.access, client) !== null) {
        end(client); // its reconnection gets the HTTP error
        continue;
      }
      const variant = variantOf(client.query);
      let out = bodies.get(variant);
      if (out === undefined) {
        out = streamBody(source, client.query);
        bodies.set(variant, out);
      }
      if (out !== null && out.id > client.lastId) {
        writeEvent(client, out.id, out.event);
        overfull(client);
      }
    }
  };

  /** Reads the page once per change burst: changes that arrive during a read cause one more. */
  const refresh = async (slug: string): Promise<void> => {
    if (refreshing.has(slug)) {
      refreshing.set(slug, true);
      return;
    }
    refreshing.set(slug, false);
    try {
      do {
        refreshing.set(slug, false);
        const targets = clients.get(slug);
        if (targets === undefined) break;
        const now = clock().getTime();
        const read = await reads.embedStream(await locate(slug), now, anyNeedsSeries(targets));
        deliver(read, [...(clients.get(slug) ?? [])]); // those ended during the read are gone
      } while (refreshing.get(slug) === true);
    } catch (error) {
      deps.log.warn({ err: error, slug }, 'live stream refresh failed');
    } finally {
      refreshing.delete(slug);
    }
  };

  const ownSubscriber = deps.subscriber === undefined;
  const subscriber = deps.subscriber ?? createSubscriber(deps.redis, `${deps.prefix}:live-streams`, deps.log);
  subscriber.psubscribe(changesPattern(deps.prefix), (_channel, message) => {
    const { slug, embedChanged } = parsePageChange(message);
    if (!embedChanged) return; // another body of the page: nothing a stream shows
    seen.set(slug, (seen.get(slug) ?? 0) + 1);
    if (clients.has(slug)) void refresh(slug);
  });
  // Changes announced while the subscriber was away are lost: look at every streamed page again.
  subscriber.onLive(() => {
    for (const slug of clients.keys()) void refresh(slug);
  });

  const beat = () => {
    const now = Date.now();
    for (const set of clients.values())
      for (const client of [...set]) {
        if (now >= client.endsAt) end(client, reconnectHint());
        else if (!overfull(client)) client.res.write(': heartbeat\n\n');
      }
  };

  return {
    /** Resolves once this process receives changes (call before reading the initial body). */
    ready: (): Promise<void> => subscriber.ready(),
    /** How many changes of `slug` this process has seen: compare before and after a read. */
    seen: (slug: string): number => seen.get(slug) ?? 0,
    refresh,
    clock,
    /** Stream slots (caps per client and in all) and the limits streams live by. */
    slots,
    limits,
    /** Streams open or being opened in this process: the `live_streams_open` gauge. */
    open: (): number => slots.open(),
    /** Lifetime ends 0-10 % early, so streams opened together do not all end together. */
    endsAt: (): number => Date.now() + limits.maxLifetimeMs * (1 - Math.random() * 0.1),
    add: (client: StreamClient): void => {
      const set = clients.get(client.slug) ?? new Set<StreamClient>();
      clients.set(client.slug, set);
      set.add(client);
      size += 1;
      heartbeat ??= setInterval(beat, deps.heartbeatMs ?? limits.heartbeatMs);
      if (minuteTimer === null && needsSeries(client.query)) armMinute();
      client.res.once('close', () => forget(client));
      // A failed write (the client reset the connection) is a stream gone, not the process's end.
      client.res.on('error', (error) => {
        forget(client);
        deps.log.debug({ err: error, slug: client.slug }, 'live stream write failed');
      });
    },
    size: (): number => size,
    /** Ends every stream and the subscription (shutdown). */
    close: async (): Promise<void> => {
      for (const set of [...clients.values()]) for (const client of [...set]) end(client);
      if (heartbeat !== null) clearInterval(heartbeat);
      heartbeat = null;
      if (minuteTimer !== null) clearTimeout(minuteTimer);
      minuteTimer = null;
      if (ownSubscriber) await subscriber.close();
    },
  };
};

export type ChangeHub = ReturnType<typeof createChangeHub>;
