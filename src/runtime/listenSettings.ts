// Connection bounds of every listener (docs/operations.md, "Connections"): how long a client may
// take to send its headers and its whole request, how long a connection may stay silent, how
// long an idle keep-alive connection is kept, and how many connections one process holds.
import { z } from 'zod';
import { ConfigError, parseSettings } from '../config.ts';

export type ListenSettings = Readonly<{
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleSocketTimeoutMs: number;
  maxConnections: number;
}>;

const ms = (fallback: number) => z.coerce.number().int().min(100).max(3_600_000).default(fallback);

const Env = z.object({
  HTTP_HEADERS_TIMEOUT_MS: ms(10_000),
  HTTP_REQUEST_TIMEOUT_MS: ms(30_000),
  // Longer than a fronting proxy keeps its idle upstream connections (nginx `keepalive_timeout`
  // 60 s, AWS ALB 60 s): the proxy, not this process, closes them, so no request races a close.
  HTTP_KEEP_ALIVE_TIMEOUT_MS: ms(75_000),
  HTTP_IDLE_SOCKET_TIMEOUT_MS: ms(120_000),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000_000).default(25_000),
});

/** @throws ConfigError naming the bad variables */
export const loadListenSettings = (env: NodeJS.ProcessEnv = process.env): ListenSettings => {
  const e = parseSettings(Env, env);
  if (e.HTTP_REQUEST_TIMEOUT_MS < e.HTTP_HEADERS_TIMEOUT_MS)
    throw new ConfigError(
      'Invalid settings:\n  HTTP_REQUEST_TIMEOUT_MS: must not be less than HTTP_HEADERS_TIMEOUT_MS',
    );
  return {
    headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    idleSocketTimeoutMs: e.HTTP_IDLE_SOCKET_TIMEOUT_MS,
    maxConnections: e.HTTP_MAX_CONNECTIONS,
  };
};
