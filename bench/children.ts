// Child processes of a benchmark: servers under test (bench/server.ts), the real projector
// worker (`src/main.ts work`, or a build's `main.js work`) and production commands (`node
// dist/main.js serve`). Every child is stopped by stopAll(), also on Ctrl-C.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { API_NODE_FLAGS } from '../src/runtime/apiNodeFlags.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const running = new Set<ChildProcess>();

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      running.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });

/**
 * BENCH_CPU_PROF_DIR=<dir>: the API server under test writes a CPU profile there when stopped;
 * BENCH_WORKER_CPU_PROF_DIR=<dir>: the worker process does; BENCH_CHILD_STDERR=1: every child's
 * stderr is passed through (its logs, while profiling a phase).
 */
const profiling = (args: readonly string[]): string[] => {
  const api = args[0] === 'bench/server.ts' && args[1] === 'app';
  const worker = args[1] === 'work';
  const dir = api
    ? process.env['BENCH_CPU_PROF_DIR']
    : worker
      ? process.env['BENCH_WORKER_CPU_PROF_DIR']
      : undefined;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
};

/**
 * Starts `script` with tsx (or, `runner` 'node', a built one as is); resolves once a stdout line
 * satisfies `ready` (returning a value).
 */
const startChild = <T>(
  args: string[],
  env: Record<string, string>,
  ready: (line: string) => T | undefined,
  timeoutMs = 30_000,
  runner: 'tsx' | 'node' = 'tsx',
) =>
  new Promise<{ value: T; pid: number; stop: () => Promise<void>; output: () => string }>(
    (resolve, reject) => {
      // --expose-gc: the hostile bench asks the API for its heap after a full collection. The
      // API under test starts with the flags of every API process; the baselines with none.
      const api = args[0] === 'bench/server.ts' && args[1] === 'app';
      const flags = args[0] === 'bench/server.ts' ? ['--expose-gc', ...(api ? API_NODE_FLAGS : [])] : [];
      const loader = runner === 'tsx' ? ['--import', 'tsx'] : [];
      const child = spawn(process.execPath, [...profiling(args), ...flags, ...loader, ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      running.add(child);
      let output = '';
      let buffered = '';
      let settled = false;
      const timer = setTimeout(
        () => fail(new Error(`${args.join(' ')} did not start within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void stop(child).then(() => reject(error));
      };
      const keep = (text: string) => {
        output = (output + text).slice(-20_000); // the tail, for error messages
      };
      child.stderr.on('data', (chunk: Buffer) => {
        keep(chunk.toString());
        if (process.env['BENCH_CHILD_STDERR']) process.stderr.write(chunk);
      });
      child.stdout.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        keep(text);
        if (settled) return;
        buffered += text;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          const value = ready(line);
          if (value === undefined) continue;
          settled = true;
          clearTimeout(timer);
          resolve({ value, pid: child.pid ?? 0, stop: () => stop(child), output: () => output });
          return;
        }
      });
      child.once('exit', (code) => fail(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)));
    },
  );

export type ServerMode = 'app' | 'hello' | 'raw' | 'sql';
export type ServerChild = Readonly<{ url: string; pid: number; stop: () => Promise<void> }>;

export const startServer = async (mode: ServerMode, env: Record<string, string>): Promise<ServerChild> => {
  const child = await startChild(['bench/server.ts', mode], env, (line) => {
    try {
      const { port } = JSON.parse(line) as { port?: number };
      return typeof port === 'number' ? port : undefined;
    } catch {
      return undefined;
    }
  });
  return { url: `http://127.0.0.1:${child.value}`, pid: child.pid, stop: child.stop };
};

/** The offered ingest load of bench/offerChecks.ts; `stop` resolves with the rate it achieved. */
export const startOfferedLoad = async (env: Record<string, string>) => {
  const child = await startChild(['bench/offerChecks.ts'], env, (line) =>
    line === 'offering' ? true : undefined,
  );
  return {
    pid: child.pid,
    pause: (): void => {
      process.kill(child.pid, 'SIGUSR1');
    },
    resume: (): void => {
      process.kill(child.pid, 'SIGUSR2');
    },
    stop: async (): Promise<number> => {
      await child.stop();
      const last = child.output().trim().split('\n').at(-1) ?? '';
      return (JSON.parse(last) as { achieved: number }).achieved;
    },
  };
};

/**
 * The production worker process (projector workers and scheduler): the sources under tsx, or with
 * `entry` (buildToScratch) the build under node, as `npm run work` runs it.
 */
export const startWorker = async (env: Record<string, string>, entry?: string) =>
  startChild(
    [entry ?? 'src/main.ts', 'work'],
    { LOG_LEVEL: 'info', WORKER_PROBE_PORT: '0', ...env },
    (line) => (line.includes('projector workers started') ? true : undefined),
    30_000,
    entry === undefined ? 'tsx' : 'node',
  );

/** The service built into a scratch directory of its own (dist/ is left alone); `remove` deletes it. */
export const buildToScratch = async (): Promise<{ entry: string; remove: () => Promise<void> }> => {
  const dir = join(root, '.scratch', `bench-dist-${randomBytes(4).toString('hex')}`);
  await promisify(execFile)(process.execPath, ['build/build.js', '--outdir', dir], { cwd: root });
  return { entry: join(dir, 'main.js'), remove: () => rm(dir, { recursive: true, force: true }) };
};

/**
 * A production command as operators run it: `node <build>/main.js …` ('node') or the sources under
 * tsx ('tsx'). Readiness is the caller's to find out (procsPhase polls an endpoint).
 */
export const spawnService = (runner: 'node' | 'tsx', args: string[], env: Record<string, string>) => {
  const child = spawn(process.execPath, runner === 'tsx' ? ['--import', 'tsx', ...args] : args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-20_000)));
  return {
    pid: child.pid ?? 0,
    running: () => child.exitCode === null && child.signalCode === null,
    errors: () => errors,
    stop: () => stop(child),
  };
};

export const stopAll = async (): Promise<void> => {
  await Promise.all([...running].map(stop));
};
