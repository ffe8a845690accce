// A network namespace of the test's own (`unshare --net`, loopback up): nothing listens on 5432 or
// 6379 there, as on a bare machine. Commands join it with nsenter; it ends with its holder process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export type Namespace = Readonly<{
  /** The argv prefix that runs a command inside the namespace. */
  enter: readonly string[];
  close: () => void;
}>;

/** Why a namespace cannot be made here (not root, no unshare or ip), or null when it can. */
export const namespaceUnavailable = (): string | null => {
  const probe = spawnSync('unshare', ['--net', 'ip', 'link', 'set', 'lo', 'up']);
  const why = probe.stderr?.toString().trim() || 'not found';
  return probe.status === 0 ? null : `unshare --net ip link set lo up failed: ${why}`;
};

export const createNamespace = async (): Promise<Namespace> => {
  const holder: ChildProcess = spawn(
    'unshare',
    ['--net', 'sh', '-c', 'ip link set lo up && exec sleep 3600'],
    {
      stdio: 'ignore',
    },
  );
  const pid = String(holder.pid);
  // Up once `lo` answers from inside.
  for (let i = 0; i < 100; i += 1) {
    const up = spawnSync('nsenter', ['-t', pid, '-n', 'ip', '-o', 'link', 'show', 'lo']);
    if (up.status === 0 && /state UNKNOWN|LOWER_UP/.test(up.stdout.toString())) break;
    await sleep(50);
  }
  // By its full path: a command may run with a PATH that lacks it.
  const nsenter = spawnSync('sh', ['-c', 'command -v nsenter']).stdout.toString().trim();
  return { enter: [nsenter, '-t', pid, '-n'], close: () => void holder.kill('SIGKILL') };
};

type Run = Readonly<{ code: number | null; stdout: string; stderr: string; ms: number }>;

/** Runs a command inside the namespace to its end. */
export const runIn = (
  ns: Namespace,
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Run> =>
  new Promise((resolve, reject) => {
    const started = Date.now();
    const [command, ...args] = [...ns.enter, ...argv] as [string, ...string[]];
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });

/** GET `url` from inside the namespace: the status and the body. */
export const fetchIn = async (ns: Namespace, url: string): Promise<{ status: number; body: string }> => {
  const script =
    'fetch(process.argv[1]).then(async (r) => process.stdout.write(JSON.stringify({ status: r.status, body: await r.text() })))';
  const run = await runIn(ns, [process.execPath, '-e', script, url], { cwd: '/', env: process.env });
  if (run.code !== 0) throw new Error(`fetch ${url} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { status: number; body: string };
};
