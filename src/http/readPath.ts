// The request path of one API process as `npm run serve` wires it: subscriber, response cache,
// memo and request-log policy, from the environment.
import type { RedisClient } from '../store/redisClient.ts';
import { createSubscriber, type Subscriber } from '../store/subscriber.ts';
import type { Logger } from '../shared/logger.ts';
import { createReadCache, type ReadCache } from './readCache.ts';
import { loadReadPathSettings } from './readPathSettings.ts';
import { createResponseMemo, type ResponseMemo } from './responseMemo.ts';
import type { RequestLogPolicy } from './requestLog.ts';

export type ReadPath = Readonly<{
  subscriber: Subscriber;
  cache?: ReadCache;
  /** Whole answers made from `cache`, given again without entering the app (with the cache only). */
  memo?: ResponseMemo;
  requestLog: RequestLogPolicy;
  close: () => Promise<void>;
}>;

export const createReadPath = (
  deps: Readonly<{ redis: RedisClient; prefix: string; log: Logger }>,
  env: NodeJS.ProcessEnv = process.env,
): ReadPath => {
  const settings = loadReadPathSettings(env);
  const subscriber = createSubscriber(deps.redis, `${deps.prefix}:api`, deps.log);
  const cache =
    settings.cacheTtlMs > 0
      ? createReadCache(subscriber, deps.prefix, {
          ttlMs: settings.cacheTtlMs,
          maxBytes: settings.cacheMaxBytes,
        })
      : undefined;
  void subscriber.ready(); // connect now: the cache serves once subscribed
  return {
    subscriber,
    ...(cache ? { cache, memo: createResponseMemo(cache, { maxBytes: settings.cacheMaxBytes }) } : {}),
    requestLog: settings.requestLog,
    close: async () => {
      cache?.close();
      await subscriber.close();
    },
  };
};
