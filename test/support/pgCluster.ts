// A PostgreSQL cluster of the test's own (initdb + pg_ctl in a temporary directory, on a free
// port): for tests that restore into a new server or stop and restart one, never done to the
// shared server. initdb refuses to run as root, so as root the server runs as `postgres`.
import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redisServer.ts';

const run = promisify(execFile);

export type PgCluster = Readonly<{
  /** A server URL (database `postgres`, superuser `root`, trust authentication). */
  url: string;
  port: number;
  /** The directory of this PostgreSQL's programs (pg_dump, pg_restore, …). */
  bin: string;
  stop: () => Promise<void>;
  /** pg_ctl stop (fast) and start again, keeping the data. */
  restart: () => Promise<void>;
}>;

/** The newest installed PostgreSQL's bin directory (Debian layout), or the one on the PATH. */
const postgresBin = async (): Promise<string> => {
  const root = '/usr/lib/postgresql';
  const versions = await readdir(root).catch(() => [] as string[]);
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest) return join(root, newest, 'bin');
  const { stdout } = await run('pg_config', ['--bindir']).catch(() => {
    throw new Error('PostgreSQL server programs (initdb, pg_ctl) not found: install postgresql');
  });
  return stdout.trim();
};

export const startPgCluster = async (): Promise<PgCluster> => {
  const bin = await postgresBin();
  const dir = await mkdtemp(join(tmpdir(), 'sp-pg-'));
  const data = join(dir, 'data');
  const asServerUser = process.getuid?.() === 0;
  if (asServerUser) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    await chmod(dir, 0o700);
  }
  const pgRun = (program: string, args: string[]) =>
    asServerUser
      ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args])
      : run(join(bin, program), args);
  await pgRun('initdb', ['-D', data, '-U', 'root', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () => pgRun('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = () => pgRun('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  return {
    url: `postgres://root@127.0.0.1:${port}/postgres`,
    port,
    bin,
    restart: async () => {
      await stop();
      await start();
    },
    stop: async () => {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
};
