// WEB_CONCURRENCY: how many processes serve the public API (`npm run serve`, `npm start`). The
// default is one per core the process may use; 1 keeps everything in one process, as before.
import os from 'node:os';
import { z } from 'zod';
import { ConfigError } from '../config.ts';

const Processes = z.coerce.number().int().min(1).max(256);

/** Parsed once at start, with the other settings. @throws ConfigError naming the variable */
export const webConcurrency = (env: NodeJS.ProcessEnv = process.env): number => {
  const raw = env['WEB_CONCURRENCY'];
  if (raw === undefined || raw.trim() === '') return os.availableParallelism();
  const parsed = Processes.safeParse(raw.trim());
  if (!parsed.success)
    throw new ConfigError(
      `Invalid settings:\n  WEB_CONCURRENCY: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
    );
  return parsed.data;
};
