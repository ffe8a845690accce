// The service's processes under chaos: the API (`serve`), the workers (`work`) and a rebuild, each
// a real `src/main.ts` child that the run SIGKILLs and starts again. Their logs go to one file.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export type Role = 'serve' | 'work' | 'rebuild';

export type Fleet = Readonly<{
  start: (role: Role, name: string) => ChildProcess;
  /** SIGKILL (or another signal) and wait for the exit. */
  kill: (name: string, signal?: NodeJS.Signals) => Promise<void>;
  /** Waits for a child to exit by itself; resolves with its exit code. */
  exited: (name: string) => Promise<number | null>;
  stopAll: () => Promise<void>;
}>;

export const startFleet = (env: Record<string, string>, logFile: string): Fleet => {
  const children = new Map<string, ChildProcess>();
  const log: WriteStream = createWriteStream(logFile, { flags: 'a' });
  const kill = async (name: string, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = children.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  return {
    start: (role, name) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', role], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const tagLines = (chunk: Buffer) =>
        log.write(
          chunk
            .toString()
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => `[${name}] ${line}\n`)
            .join(''),
        );
      child.stdout.on('data', tagLines);
      child.stderr.on('data', tagLines);
      children.set(name, child);
      return child;
    },
    kill,
    exited: (name) => {
      const child = children.get(name);
      if (!child) return Promise.resolve(null);
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    },
    stopAll: async () => {
      await Promise.all([...children.keys()].map((name) => kill(name, 'SIGTERM')));
      await sleep(50);
      await Promise.all([...children.keys()].map((name) => kill(name)));
      await new Promise((resolve) => log.end(resolve));
    },
  };
};

/** Until `url` answers (any status), or `timeoutMs`. */
export const waitForHttp = async (url: string, timeoutMs = 60_000): Promise<void> => {
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
};
