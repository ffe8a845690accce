// The production build in a test: `node build/build.js` into a directory of its own under .scratch/
// (test files run in parallel; none touches dist/), and `node <build>/main.js <command>` as a child
// process whose JSON log lines a test can wait for.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));

export type Build = Readonly<{ main: string; remove: () => Promise<void> }>;

export const buildDist = async (): Promise<Build> => {
  const dir = join(root, '.scratch', `dist-${randomBytes(5).toString('hex')}`);
  await promisify(execFile)(process.execPath, ['build/build.js', '--outdir', dir], { cwd: root });
  return { main: join(dir, 'main.js'), remove: () => rm(dir, { recursive: true, force: true }) };
};

export type LogLine = Readonly<{ pid: number; msg: string } & Record<string, unknown>>;

export type DistProcess = Readonly<{
  child: ChildProcess;
  lines: () => readonly LogLine[];
  /** Resolves with the first log line (already seen or to come) that satisfies `match`. */
  waitForLine: (match: (line: LogLine) => boolean, timeoutMs?: number) => Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}>;

export const startDist = (main: string, args: string[], env: Record<string, string>): DistProcess => {
  const child = spawn(process.execPath, [main, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen: LogLine[] = [];
  let output = '';
  const waiters = new Set<() => void>();
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) {
      try {
        seen.push(JSON.parse(part) as LogLine);
      } catch {
        // not a log line (the welcome text)
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal });
    }),
  );
  const waitForLine = (match: (line: LogLine) => boolean, timeoutMs = 45_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const check = () => {
        const line = seen.find(match);
        if (line) {
          done();
          resolve(line);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`exited with ${child.exitCode ?? child.signalCode}:\n${output}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no such log line within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { child, lines: () => seen, waitForLine, exited };
};
