// `npm run ingest -- <file.ndjson|->`.
import type { Config } from '../config.ts';
import { migrate } from '../eventLog/migrate.ts';
import { cliIngest } from '../ingest/cliIngest.ts';
import { createProjectorQueue, createWake } from '../projector/queue.ts';
import { createActiveVersionReader } from '../models/control/activeVersionReader.ts';
import { systemClock } from '../shared/clock.ts';
import { hostOfUrl } from '../shared/hostName.ts';
import { createClients } from './clients.ts';

export const ingestCommand = async (config: Config, args: string[]): Promise<number> => {
  const source = args[0];
  if (!source) {
    console.error('usage: npm run ingest -- <file.ndjson|->');
    return 2;
  }
  await migrate(config.databaseUrl);
  const clients = await createClients(config, 'ingest');
  const queue = createProjectorQueue(clients.queueRedis, config.redisPrefix);
  try {
    return await cliIngest({
      db: clients.db,
      source,
      clock: systemClock,
      ownHost: hostOfUrl(config.publicBaseUrl),
      wake: createWake(queue, createActiveVersionReader(clients.redis, config.redisPrefix)),
      out: process.stdout,
      err: process.stderr,
      isTTY: process.stderr.isTTY,
    });
  } finally {
    await queue.close();
    await clients.close();
  }
};
