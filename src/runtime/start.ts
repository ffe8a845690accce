// `npm start`: the whole system in one process for a single machine, with the demo page.
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { loadDemo } from '../demo/loadDemo.ts';
import { startDemoAgent } from '../demo/demoAgent.ts';
import { isLogEmpty } from '../eventLog/isLogEmpty.ts';
import { verifyLogOrigin } from '../eventLog/logOrigin.ts';
import { migrate } from '../eventLog/migrate.ts';
import { systemClock } from '../shared/clock.ts';
import { createClients, type Clients } from './clients.ts';
import { useOrEmbedServers } from './embeddedServers.ts';
import { projectRoot } from './embeddedProcess.ts';
import { createShutdown } from './onShutdown.ts';
import { serve } from './serve.ts';
import { printWelcome } from './welcome.ts';

type StartWorkers = (
  config: Config,
  clients: Clients,
  onShutdown: (close: () => Promise<unknown>) => void,
  options: { probes: false; registry: Registry },
) => Promise<unknown>;

/** `work` starts the projector's half (workers/work.ts): passed in, so the API's half imports none of it. */
export const start = async (given: Config, processes: number, work: StartWorkers): Promise<null> => {
  // The servers of DATABASE_URL / REDIS_URL, or ones of our own when nothing answers.
  const servers = await useOrEmbedServers(given);
  const { config } = servers;
  const clients = await (async () => {
    await migrate(config.databaseUrl);
    return createClients(config, 'statuspage');
  })().catch(async (error: unknown) => {
    await servers.stop();
    throw error;
  });
  await verifyLogOrigin(clients.db).catch(async (error: unknown) => {
    await clients.close();
    await servers.stop();
    throw error;
  });
  const { onShutdown } = createShutdown(clients.log);
  onShutdown(() => servers.stop()); // the first closer runs last: after every connection closed
  onShutdown(() => clients.close());
  const demo = config.demo && (await isLogEmpty(clients.db));
  if (demo) await loadDemo({ db: clients.db, clock: systemClock, progress: process.stderr });
  // No SMTP server: the whole sign-up still works, mail lands in .data/mail (README, "Run it").
  if (!process.env['MAIL_URL'] && !process.env['MAIL_FOLDER'])
    process.env['MAIL_FOLDER'] = join(projectRoot(), '.data', 'mail');
  const { wake, registry } = await serve(config, clients, onShutdown, processes);
  await work(config, clients, onShutdown, { probes: false, registry });
  if (config.demo) {
    const agent = startDemoAgent({ db: clients.db, clock: systemClock, wake, log: clients.log });
    onShutdown(async () => agent.stop());
  }
  if (demo) process.stderr.write('Projecting the demo page; the URLs follow once they answer…\n');
  await printWelcome({
    db: clients.db,
    redis: clients.redis,
    config,
    now: systemClock,
    apiProcesses: processes,
    servers: servers.notes,
  });
  return null;
};
