// The one entry point behind the npm scripts: start, serve, work, migrate, ingest, rebuild,
// repair-restore, simulate. Settings come from the environment (src/config.ts); a bad one stops here.
// Production runs the build of this file (`node dist/main.js <command>`, build/build.js).
import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { LogRestored, verifyLogOrigin } from './eventLog/logOrigin.ts';
import { migrate } from './eventLog/migrate.ts';
import { RedisEvicts } from './store/evictionPolicy.ts';
import { createClients, type Clients } from './runtime/clients.ts';
import { createShutdown } from './runtime/onShutdown.ts';
import { explainPostgresError, preflightCommand } from './runtime/preflight.ts';
import { StartupError } from './runtime/startupErrors.ts';
import { webConcurrency } from './runtime/webConcurrency.ts';

/**
 * A long-running process: migrate, connect, run until SIGTERM/SIGINT. A process that projects
 * refuses a restored log (LogRestored); the API only warns, it reads Redis and appends safely.
 */
const runService = async (
  config: Config,
  name: string,
  run: (clients: Clients, onShutdown: (close: () => unknown) => void) => Promise<void>,
): Promise<null> => {
  await migrate(config.databaseUrl);
  const clients = await createClients(config, name);
  try {
    await verifyLogOrigin(clients.db);
  } catch (error) {
    if (!(error instanceof LogRestored) || name === 'worker') {
      await clients.close();
      throw error;
    }
    clients.log.error(error.message);
  }
  const { onShutdown } = createShutdown(clients.log);
  onShutdown(() => clients.close());
  await run(clients, onShutdown);
  return null;
};

const commands: Record<string, (config: Config, args: string[]) => Promise<number | null>> = {
  migrate: async (config) => {
    const applied = await migrate(config.databaseUrl);
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
    return 0;
  },
  serve: (config) => {
    const processes = webConcurrency();
    return runService(config, 'api', async (clients, onShutdown) => {
      await (await import('./runtime/serve.ts')).serve(config, clients, onShutdown, processes);
    });
  },
  work: (config) =>
    runService(config, 'worker', async (clients, onShutdown) => {
      await (await import('../workers/work.ts')).work(config, clients, onShutdown);
    }),
  start: async (config) =>
    (await import('./runtime/start.ts')).start(
      config,
      webConcurrency(),
      (await import('../workers/work.ts')).work,
    ),
  ingest: async (config, args) => (await import('./runtime/ingestCommand.ts')).ingestCommand(config, args),
  rebuild: async (config) => (await import('./runtime/rebuildCommand.ts')).rebuildCommand(config),
  'repair-restore': async (config) =>
    (await import('./runtime/repairRestoreCommand.ts')).repairRestoreCommand(config),
  simulate: async (config, args) =>
    (await import('./runtime/simulateCommand.ts')).simulateCommand(config, args),
};

const main = async () => {
  const [name = '', ...args] = process.argv.slice(2);
  const command = commands[name];
  if (!command) {
    console.error(`usage: node dist/main.js <${Object.keys(commands).join('|')}> [args]`);
    return 2;
  }
  try {
    // A process forked by `serve` or `start` with WEB_CONCURRENCY > 1 serves the public API only.
    if (cluster.isWorker) return await (await import('./runtime/apiProcess.ts')).apiProcess(loadConfig());
    const config = loadConfig();
    await preflightCommand(name, config); // a missing server: a clear message, not a stack trace
    return await command(config, args).catch((error: unknown) => {
      throw explainPostgresError(error, config) ?? error;
    });
  } catch (error) {
    if (error instanceof StartupError) {
      console.error(error.message);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 78; // EX_CONFIG
    }
    if (error instanceof RedisEvicts) {
      console.error(error.message);
      return 78; // EX_CONFIG: the Redis server's configuration
    }
    if (error instanceof LogRestored) {
      console.error(error.message);
      return 65; // EX_DATAERR
    }
    throw error;
  }
};

main().then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
