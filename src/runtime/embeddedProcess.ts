// What the embedded servers share: a free loopback port, the project's data folder, a server
// process of our own (its own process group, so a Ctrl-C reaches the service first and the
// service stops it after its last write), and a left-over one from a run that was killed.
import { spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export type EmbeddedServer = Readonly<{
  /** The URL the service connects to. */
  url: string;
  /** One line for the welcome text. */
  description: string;
  /** Stops the server cleanly (waits for it to exit). */
  stop: () => Promise<void>;
  /** The last resort on process exit: signals the server, without waiting. */
  signal: () => void;
}>;

/** The project's folder: the nearest one above this module holding package.json (src/ or dist/src/). */
export const projectRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
};

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A server a killed run left behind on this data folder (its pid file names it) is stopped, so
 * two servers never write the same files. `program` guards against a reused pid (Linux /proc).
 */
export const stopLeftOver = async (pidFile: string, program: string, signal: NodeJS.Signals) => {
  const pid = Number(existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n')[0] : NaN);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  const cmdline = `/proc/${String(pid)}/cmdline`;
  if (existsSync(cmdline) && !readFileSync(cmdline, 'utf8').includes(program)) return;
  process.kill(pid, signal);
  for (let i = 0; i < 100 && alive(pid); i += 1) await sleep(100);
};

type Spawned = Readonly<{
  exited: Promise<number | null>;
  hasExited: () => boolean;
  stop: (signal: NodeJS.Signals) => Promise<void>;
  signal: (signal: NodeJS.Signals) => void;
}>;

/** Starts `command` detached, its output appended to `logFile`. */
export const spawnServer = (
  command: string,
  args: readonly string[],
  logFile: string,
  options: Pick<SpawnOptions, 'uid' | 'gid' | 'env'> = {},
): Spawned => {
  const log = openSync(logFile, 'a');
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', log, log] });
  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    const end = (code: number | null) => {
      done = true;
      resolve(code);
    };
    child.once('error', () => {
      end(null);
    });
    child.once('exit', end);
  });
  const signal = (name: NodeJS.Signals) => {
    if (!done) child.kill(name);
  };
  return {
    exited,
    hasExited: () => done,
    signal,
    stop: async (name) => {
      signal(name);
      await exited;
    },
  };
};

/** Polls `answers` until it resolves true, the process exits, or `timeoutMs` passes. */
export const waitUntilReady = async (
  server: Spawned,
  answers: () => Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> => {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !server.hasExited()) {
    if (await answers()) return true;
    await sleep(100);
  }
  return false;
};

/** The last lines of a server's log, for a message saying why it did not start. */
export const logTail = (logFile: string, lines = 5): string =>
  existsSync(logFile)
    ? readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
    : '(no log)';
