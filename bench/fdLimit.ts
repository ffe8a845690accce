// Each open stream holds a file descriptor in the API process and one in the benchmark process.
// Node cannot raise its own limit, so `npm run bench` raises the soft limit in the shell that
// starts it (`ulimit -n`); if the hard limit is lower, fewer streams are opened and the table says so.
import { execFileSync } from 'node:child_process';

const SPARE = 1_000; // sockets to Redis and PostgreSQL, files, the other children

export const streamsWithinFdLimit = (wanted: number, log: (line: string) => void): number => {
  const raw = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
  const limit = raw === 'unlimited' ? Infinity : Number(raw);
  if (limit >= wanted + SPARE) return wanted;
  const streams = Math.max(1, limit - SPARE);
  log(
    `  ulimit -n is ${raw}: opening ${streams} streams instead of ${wanted} (raise the hard limit for more)`,
  );
  return streams;
};
