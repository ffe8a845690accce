// The first run tells the truth: before printing any URL, wait until the read models have
// caught up with the log, pick a page that exists, and ask each URL; print only those that
// answered 200 (a private, blocked or free-plan page loses the URLs it refuses).
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../store/redisClient.ts';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { browsableHost, type Config } from '../config.ts';
import { projectionStatus } from '../projector/projectionStatus.ts';
import {
  candidatePaths,
  OPERATOR_PATHS,
  welcomeText,
  type Try,
  type WelcomeFacts,
  type WelcomePage,
} from './printWelcome.ts';

type WelcomeDeps = Readonly<{
  db: DatabasePool;
  redis: RedisClient;
  config: Config;
  now: () => Date;
  apiProcesses?: number;
  /** The embedded servers' lines (embeddedServers.ts). */
  servers?: readonly string[];
}>;

// Ask the listeners directly: a wildcard bind answers on loopback.
const localOrigin = (host: string, port: number): string =>
  `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : browsableHost(host)}:${String(port)}`;

const answers = async (url: string): Promise<Response | null> => {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(5000) });
  } catch {
    return null;
  }
};

const Charts = z.object({ monitors: z.array(z.object({ id: z.number() })) });

const pickPage = async (deps: WelcomeDeps, origin: string): Promise<WelcomePage | null> => {
  const slug = await deps.db.maybeOneFirst(sql.type(z.object({ slug: z.string() }))`
    SELECT slug FROM pages WHERE NOT deleted ORDER BY slug = 'demo' DESC, slug LIMIT 1`);
  if (slug === null) return null;
  const charts = await answers(`${origin}/api/status/${slug}/charts`);
  const parsed = Charts.safeParse(charts?.ok ? await charts.json() : null);
  const monitorId = parsed.success ? (parsed.data.monitors[0]?.id ?? null) : null;
  return { slug, monitorId, isDemo: slug === 'demo' && deps.config.demo };
};

const keepAnswering = async <T>(items: readonly T[], urlOf: (item: T) => string): Promise<T[]> => {
  const ok = await Promise.all(items.map(async (item) => (await answers(urlOf(item)))?.status === 200));
  return items.filter((_, i) => ok[i]);
};

/** The facts of the welcome text, every URL asked for real. */
export const gatherWelcome = async (deps: WelcomeDeps): Promise<WelcomeFacts> => {
  const { config } = deps;
  const origin = localOrigin(config.host, config.port);
  const page = await pickPage(deps, origin);
  const tries = await keepAnswering<Try>(candidatePaths(page, deps.now()), ([path]) => `${origin}${path}`);
  const operator = localOrigin(config.ingestHost, config.ingestPort);
  const operatorPaths = await keepAnswering(OPERATOR_PATHS, (path) => `${operator}${path}`);
  return {
    page,
    tries,
    operatorPaths,
    ...(deps.apiProcesses ? { apiProcesses: deps.apiProcesses } : {}),
    ...(deps.servers?.length ? { servers: deps.servers } : {}),
  };
};

/** Resolves once nothing is left to project, or after `timeoutMs` (then the URLs say what works). */
const waitForProjection = async (deps: WelcomeDeps, timeoutMs: number): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const status = await projectionStatus(deps.db, deps.redis, deps.config.redisPrefix).catch(() => null);
    if (status !== null && status.lag_events === 0) return;
    await sleep(500);
  }
};

export const printWelcome = async (
  deps: WelcomeDeps,
  out: Readonly<{ write: (text: string) => unknown }> = process.stdout,
): Promise<void> => {
  await waitForProjection(deps, 180_000);
  out.write(welcomeText(deps.config, await gatherWelcome(deps)));
};
