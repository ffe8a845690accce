// Where the processes of the under-load phase run. On this kind of machine (2 shared vCPUs) the
// API server, the bench's own HTTP client, the projector worker, the offered load, PostgreSQL and
// Redis all want the same two cores, and a read's p99 then measures the kernel's time slices more
// than anything the projector does to the read path. So the phase measures twice: with the cores
// shared, and split, the API server and its client on one CPU and the projector worker and the
// offered load on the others (PostgreSQL and Redis stay where the kernel puts them): as a deployment
// that cares about read latency gives its API processes cores of their own.
import { execFileSync } from 'node:child_process';

const affinity = (pid: number): string => {
  const line = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  return line.trim().split(': ').at(-1)!; // "pid 42's current affinity list: 0,1"
};

const pin = (pid: number, cpus: string): void => {
  // -a: every thread the process runs now; threads it starts later inherit the affinity.
  execFileSync('taskset', ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
};

/** "0,2-4" → [0, 2, 3, 4] */
const cpuList = (list: string): number[] =>
  list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number) as [number, number?];
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });

/**
 * Pins `readers` to the first CPU this process may use and `others` to the rest; `undo` puts every
 * process back where it was. `skipped` says why not, where there is one CPU or no taskset.
 */
export const splitCpus = (
  readers: readonly number[],
  others: readonly number[],
): { undo: () => void } | { skipped: string } => {
  let cpus: number[];
  try {
    cpus = cpuList(affinity(process.pid));
  } catch {
    return { skipped: 'no taskset (util-linux)' };
  }
  if (cpus.length < 2) return { skipped: 'one CPU' };
  const before = [...readers, ...others].map((pid) => [pid, affinity(pid)] as const);
  for (const pid of readers) pin(pid, String(cpus[0]));
  for (const pid of others) pin(pid, cpus.slice(1).join(','));
  return {
    undo: () => {
      for (const [pid, list] of before) {
        try {
          pin(pid, list);
        } catch {
          // A process that has exited since.
        }
      }
    },
  };
};
