// What one API process allows its live streams (docs/operations.md, "Live streams").
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { parseSettings } from '../../config.ts';
import { ApiError } from '../../http/errors.ts';

export type StreamLimitSettings = Readonly<{
  perClient: number;
  total: number;
  maxUnsentBytes: number;
  maxLifetimeMs: number;
  hubWaitMs: number;
  heartbeatMs: number;
}>;

const Env = z.object({
  LIVE_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(500),
  LIVE_STREAMS_MAX: z.coerce.number().int().min(1).max(10_000_000).default(20_000),
  LIVE_STREAM_MAX_UNSENT_KB: z.coerce.number().int().min(1).max(65_536).default(256),
  LIVE_STREAM_MAX_LIFETIME_S: z.coerce.number().int().min(1).max(86_400).default(3600),
  LIVE_STREAM_HUB_WAIT_MS: z.coerce.number().int().min(1).max(120_000).default(5000),
  LIVE_STREAM_HEARTBEAT_S: z.coerce.number().int().min(1).max(3600).default(25),
});

/** @throws ConfigError naming the bad variables */
export const loadStreamLimits = (env: NodeJS.ProcessEnv = process.env): StreamLimitSettings => {
  const e = parseSettings(Env, env);
  return {
    perClient: e.LIVE_STREAMS_PER_CLIENT,
    total: e.LIVE_STREAMS_MAX,
    maxUnsentBytes: e.LIVE_STREAM_MAX_UNSENT_KB * 1024,
    maxLifetimeMs: e.LIVE_STREAM_MAX_LIFETIME_S * 1000,
    hubWaitMs: e.LIVE_STREAM_HUB_WAIT_MS,
    heartbeatMs: e.LIVE_STREAM_HEARTBEAT_S * 1000,
  };
};

export const defaultStreamLimits: StreamLimitSettings = loadStreamLimits({});

/** Seconds a refused client is told to wait: a stream slot frees up when one ends, not at once. */
const STREAM_RETRY_AFTER_S = 30;

export const createStreamSlots = (settings: StreamLimitSettings) => {
  const byClient = new Map<string, number>();
  let open = 0;
  return {
    settings,
    /**
     * Takes a slot for a stream of `client`, given back once `res` closes.
     * @throws ApiError too_many_requests (this client's cap) or service_unavailable (the process's)
     */
    take: (client: string, res: ServerResponse): void => {
      const held = byClient.get(client) ?? 0;
      if (held >= settings.perClient)
        throw new ApiError('too_many_requests', { retryAfter: STREAM_RETRY_AFTER_S });
      if (open >= settings.total)
        throw new ApiError('service_unavailable', { retryAfter: STREAM_RETRY_AFTER_S });
      byClient.set(client, held + 1);
      open += 1;
      res.once('close', () => {
        open -= 1;
        const left = (byClient.get(client) ?? 1) - 1;
        if (left === 0) byClient.delete(client);
        else byClient.set(client, left);
      });
    },
    /** Streams open (or being opened) in this process: the `live_streams_open` gauge. */
    open: (): number => open,
  };
};

/** Resolves with `promise`, or throws service_unavailable once `ms` passed first. */
export const within = async <T>(promise: Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ApiError('service_unavailable')), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
};
