// `npm start` only: use the configured or default PostgreSQL and Redis, or run embedded ones with
// their data in .data/.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { projectRoot, type EmbeddedServer } from './embeddedProcess.ts';
import { startEmbeddedPostgres } from './embeddedPostgres.ts';
import { startEmbeddedRedis } from './embeddedRedis.ts';
import { postgresAbsent, redisAbsent, requireServers } from './preflight.ts';
import { shownUrl } from './startupErrors.ts';

type Servers = Readonly<{
  config: Config;
  /** The embedded servers' lines for the welcome text (empty when none runs). */
  notes: readonly string[];
  /** Stops the embedded servers, the last thing at shutdown. */
  stop: () => Promise<void>;
}>;

const isSet = (env: NodeJS.ProcessEnv, name: string): boolean => Boolean(env[name]);

/**
 * The servers `npm start` runs with. Sets DATABASE_URL / REDIS_URL in the environment for an
 * embedded one, so the API processes forked with WEB_CONCURRENCY connect to it too.
 * @throws StartupError
 */
export const useOrEmbedServers = async (config: Config, env = process.env): Promise<Servers> => {
  const dataDir = join(projectRoot(), '.data');
  const embedded: EmbeddedServer[] = [];
  const signalAll = () => embedded.forEach((server) => server.signal());
  process.once('exit', signalAll); // whatever ends the process, no server of ours outlives it
  const stop = async () => {
    for (const server of embedded.reverse()) await server.stop();
  };
  let next = config;
  const databaseUrlSet = isSet(env, 'DATABASE_URL');
  try {
    if (!databaseUrlSet && (await postgresAbsent(config.databaseUrl))) {
      const server = await startEmbeddedPostgres(dataDir, shownUrl(config.databaseUrl));
      embedded.push(server);
      next = { ...next, databaseUrl: server.url };
      env['DATABASE_URL'] = server.url;
    }
    const redisDefault = !isSet(env, 'REDIS_URL') && !isSet(env, 'REDIS_CLUSTER_NODES');
    if (redisDefault && (await redisAbsent(config.redisUrl))) {
      const server = await startEmbeddedRedis(dataDir, shownUrl(config.redisUrl));
      embedded.push(server);
      next = { ...next, redisUrl: server.url };
      env['REDIS_URL'] = server.url;
    }
    await requireServers(next, { projects: true, databaseUrlSet });
  } catch (error) {
    await stop();
    throw error;
  }
  const notes = embedded.length
    ? [
        ...embedded.map((server) => `  ${server.description}`),
        '  They stop with this process and keep their data for the next npm start. To use servers of your',
        '  own, set DATABASE_URL and REDIS_URL (e.g. docker compose up -d postgres redis, README "Run it").',
      ]
    : [];
  return { config: next, notes, stop };
};
