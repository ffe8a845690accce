// The API's in-process view of the custom domains (domain → slug), reloaded on announcements, so
// a request looks its host up in memory.
import type { RedisClient } from '../../store/redisClient.ts';
import type { Logger } from '../../shared/logger.ts';
import type { ActiveVersionReader } from '../../store/control/activeVersionReader.ts';
import { partitionTag } from '../../../projections/store/control/keys.ts';
import { listRead, runRead } from '../../store/reads.ts';
import { createSubscriber, type Subscriber } from '../../store/subscriber.ts';
import { resolveDomains } from '../../../projections/domains/codec.ts';
import { domainChangesChannel } from '../../../projections/domains/storage.ts';
import { domainClaimsRead } from './reads.ts';

const DOMAIN_REFRESH_MS = 30_000;

type DomainDirectoryDeps = Readonly<{
  redis: RedisClient;
  prefix: string;
  log: Logger;
  readActive: ActiveVersionReader;
  refreshMs?: number;
  /** The process's shared subscriber; without one the directory opens (and closes) its own. */
  subscriber?: Subscriber;
}>;

type Loaded = Readonly<{ version: number; domains: ReadonlyMap<string, string> }>;

export const createDomainDirectory = (deps: DomainDirectoryDeps) => {
  let loaded: Loaded | null = null;
  let loading: Promise<void> | null = null;
  let requested = 0; // reloads asked for; one that arrives during a load causes another
  let subscribed: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const warn = (error: unknown) => {
    deps.log.warn({ err: error }, 'custom domains: reload failed');
  };

  const load = async (): Promise<void> => {
    const active = await deps.readActive();
    if (active === null) {
      loaded = null;
      return;
    }
    const tags = Array.from({ length: active.partitions }, (_, p) =>
      partitionTag(deps.prefix, active.version, p),
    );
    const claims = await runRead(deps.redis, listRead(tags.map(domainClaimsRead)));
    loaded = { version: active.version, domains: resolveDomains(claims) };
  };

  /** Reloads; an announcement that arrives during a reload causes one more. */
  const refresh = (): Promise<void> => {
    requested += 1;
    if (loading !== null) return loading;
    loading = (async () => {
      try {
        let done = 0;
        while (done < requested) {
          done = requested;
          await load();
        }
      } finally {
        loading = null;
      }
    })();
    return loading;
  };

  const ownSubscriber = deps.subscriber === undefined;
  const subscriber = deps.subscriber ?? createSubscriber(deps.redis, `${deps.prefix}:domains`, deps.log);
  subscriber.subscribe(domainChangesChannel(deps.prefix), () => void refresh().catch(warn));
  subscriber.onLive(() => {
    if (loaded !== null) void refresh().catch(warn); // messages sent while it was away are lost
  });

  // Subscribed before the first load, so no change can fall between the two.
  // Only the first subscription is waited for: after a reconnection, onLive reloads.
  const subscribe = (): Promise<void> => {
    if (subscribed !== null) return subscribed;
    timer ??= setInterval(() => void refresh().catch(warn), deps.refreshMs ?? DOMAIN_REFRESH_MS);
    timer.unref();
    subscribed = subscriber.ready();
    return subscribed;
  };

  return {
    /**
     * The slug of the page whose custom domain is `host` (normalizeHost form), or null.
     * @throws what the Redis client throws while the directory cannot be loaded
     */
    pageOf: async (host: string): Promise<string | null> => {
      await subscribe();
      const active = await deps.readActive();
      if (active === null) return null;
      if (loaded?.version !== active.version) await refresh();
      return loaded?.domains.get(host) ?? null;
    },
    close: async (): Promise<void> => {
      if (timer !== null) clearInterval(timer);
      timer = null;
      subscribed = null;
      if (ownSubscriber) await subscriber.close();
    },
  };
};

export type DomainDirectory = ReturnType<typeof createDomainDirectory>;
