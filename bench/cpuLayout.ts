// Where the processes of the under-load phase run. On this kind of machine (2 shared vCPUs) the
// API server, the bench's own HTTP client, the projector worker, the offered load, PostgreSQL and
// Redis all want the same two cores, and a read's p99 then measures the kernel's time slices more
// than anything the projector does to the read path. So the phase measures twice: with the cores
// shared, and split, the API server and its client on CPU 0 and the projector worker and the
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

/** The CPUs this process may use, or why the split layout cannot run here. */
const ownCpus = (): number[] | string => {
  try {
    const cpus = cpuList(affinity(process.pid));
    return cpus.length >= 2 ? cpus : 'one CPU';
  } catch {
    return 'no taskset (util-linux)';
  }
};

/** Why the split layout cannot run here, or null when it can. */
export const splitUnavailable = (): string | null => {
  const cpus = ownCpus();
  return typeof cpus === 'string' ? cpus : null;
};

/** Pins `readers` to the first CPU and `others` to the rest; the returned function undoes it. */
export const splitCpus = (readers: readonly number[], others: readonly number[]): (() => void) => {
  const cpus = ownCpus();
  if (typeof cpus === 'string') throw new Error(`cannot split the CPUs: ${cpus}`);
  const before = [...readers, ...others].map((pid) => [pid, affinity(pid)] as const);
  for (const pid of readers) pin(pid, String(cpus[0]));
  for (const pid of others) pin(pid, cpus.slice(1).join(','));
  return () => {
    for (const [pid, cpus] of before) {
      try {
        pin(pid, cpus);
      } catch {
        // A process that has exited since.
      }
    }
  };
};
