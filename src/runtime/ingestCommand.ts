// `npm run ingest -- [--resume <line>] <file.ndjson|->`.
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { migrate } from '../eventLog/migrate.ts';
import { cliIngest } from '../ingest/cliIngest.ts';
import { createProjectorQueue, createWake } from '../projector/queue.ts';
import { createActiveVersionReader } from '../store/control/activeVersionReader.ts';
import { systemClock } from '../shared/clock.ts';
import { hostOfUrl } from '../shared/hostName.ts';
import { createClients } from './clients.ts';

const USAGE = 'usage: npm run ingest -- [--resume <line>] <file.ndjson|->';

/** The source and the line to resume after; null when the arguments are not understood. */
export const parseIngestArgs = (args: string[]): { source: string; resumeAfterLine: number } | null => {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { resume: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const resume = values.resume ?? '0';
    const [source, ...others] = positionals;
    if (source === undefined || others.length > 0 || !/^\d{1,12}$/.test(resume)) return null;
    return { source, resumeAfterLine: Number(resume) };
  } catch {
    return null; // an unknown option
  }
};

export const ingestCommand = async (config: Config, args: string[]): Promise<number> => {
  const parsed = parseIngestArgs(args);
  if (parsed === null) {
    console.error(USAGE);
    return 2;
  }
  const { source, resumeAfterLine } = parsed;
  await migrate(config.databaseUrl);
  const clients = await createClients(config, 'ingest');
  const queue = createProjectorQueue(clients.queueRedis, config.redisPrefix);
  try {
    return await cliIngest({
      db: clients.db,
      source,
      resumeAfterLine,
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
