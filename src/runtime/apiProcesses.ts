// The public API in several processes (node:cluster, WEB_CONCURRENCY > 1) sharing the public port
// (docs/operations.md, "Processes: the build and WEB_CONCURRENCY").
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../shared/logger.ts';
import { apiExecArgv } from './apiNodeFlags.ts';

/** After this, a process still draining is killed. */
export const DRAIN_WITHIN_MS = 15_000;
/** A replacement that dies before it listens waits this long before the next try: no hot loop. */
const RETRY_AFTER_MS = 1_000;

type ApiProcesses = Readonly<{
  /** The port they listen on (the real one when PORT=0). */
  port: number;
  pids: () => number[];
  stop: () => Promise<void>;
}>;

const stopWorker = (worker: Worker): Promise<void> =>
  new Promise((resolve) => {
    if (worker.isDead()) {
      resolve();
      return;
    }
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), DRAIN_WITHIN_MS);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.process.kill('SIGTERM');
  });

/**
 * Forks `count` API processes (each runs this same command; main.ts sends a cluster worker to
 * apiProcess). Resolves once all of them listen. @throws when one exits before it listens
 */
export const startApiProcesses = (count: number, log: Logger): Promise<ApiProcesses> =>
  new Promise((resolve, reject) => {
    let started = false;
    let stopping = false;
    let port = 0;
    const listening = new Set<Worker>();
    const workers = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const stop = async () => {
      stopping = true;
      await Promise.all(workers().map(stopWorker));
    };
    cluster.on('listening', (worker, address) => {
      listening.add(worker);
      port = address.port;
      if (started || listening.size < count) return;
      started = true;
      resolve({ port, pids: () => workers().map((w) => w.process.pid ?? 0), stop });
    });
    cluster.on('exit', (worker, code, signal) => {
      const hadListened = listening.delete(worker);
      if (stopping) return;
      const pid = worker.process.pid;
      if (!started) {
        void stop().then(() => {
          reject(
            new Error(
              `an API process (pid ${pid}) exited (code ${code}, signal ${signal}) before it listened`,
            ),
          );
        });
        return;
      }
      log.error({ worker_pid: pid, code, signal }, 'API process exited; starting another');
      if (hadListened) cluster.fork();
      else setTimeout(() => stopping || cluster.fork(), RETRY_AFTER_MS);
    });
    // Set before the first fork: every API process, replacements included, starts with the flags.
    cluster.setupPrimary({ execArgv: apiExecArgv(process.execArgv, process.env['NODE_OPTIONS']) });
    for (let i = 0; i < count; i++) cluster.fork();
  });
