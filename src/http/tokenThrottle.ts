// Failed private-page tokens, counted per client address and page, so guessing runs at a few
// tries a minute (docs/operations.md, "Private-page tokens and ingest").
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { parseSettings } from '../config.ts';

export type TokenThrottleSettings = Readonly<{ maxFailures: number; windowMs: number }>;

const Env = z.object({
  TOKEN_FAILURES_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10),
  TOKEN_FAILURES_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(60),
});

/** @throws ConfigError naming the bad variables */
export const loadTokenThrottleSettings = (env: NodeJS.ProcessEnv = process.env): TokenThrottleSettings => {
  const e = parseSettings(Env, env);
  return {
    maxFailures: e.TOKEN_FAILURES_MAX,
    windowMs: e.TOKEN_FAILURES_WINDOW_S * 1000,
  };
};

type Window = { failures: number; endsAt: number };

export const createTokenThrottle = (settings: TokenThrottleSettings, now: () => number = Date.now) => {
  const windows = new LRUCache<string, Window>({ max: 100_000 });
  const current = (key: string): Window | undefined => {
    const window = windows.get(key);
    if (window !== undefined && window.endsAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return window;
  };
  return {
    /** Seconds `key` must wait before its next token is checked; 0 when it may try now. */
    wait: (key: string): number => {
      const window = current(key);
      if (window === undefined || window.failures < settings.maxFailures) return 0;
      return Math.max(1, Math.ceil((window.endsAt - now()) / 1000));
    },
    failed: (key: string): void => {
      const window = current(key);
      if (window === undefined) windows.set(key, { failures: 1, endsAt: now() + settings.windowMs });
      else window.failures += 1;
    },
  };
};

export type TokenThrottle = ReturnType<typeof createTokenThrottle>;

/** Where admit finds the app's throttle: app.locals, set once by buildApp. */
export const THROTTLE_LOCAL = 'tokenThrottle';
