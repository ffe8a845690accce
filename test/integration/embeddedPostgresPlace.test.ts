// As root, where the embedded PostgreSQL's cluster goes when the `postgres` user cannot enter the
// project: a folder of the project's own under /var/lib/statuspage-read-api, never one replacing a
// cluster an earlier run left in .data. Root only: anyone else runs the server as themselves.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterFolder, firstClosed, SYSTEM_FOLDER } from '../../src/runtime/embeddedPostgresPlace.ts';

const isRoot = process.getuid?.() === 0;
const idOf = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());

describe.skipIf(!isRoot)('the embedded PostgreSQL run by root', () => {
  const owner = () => ({ name: 'postgres', uid: idOf('-u'), gid: idOf('-g') });
  const made: string[] = [];
  const folder = (mode: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-place-'));
    chmodSync(dir, mode);
    made.push(dir);
    const dataDir = join(dir, 'app', '.data');
    mkdirSync(dataDir, { recursive: true });
    chmodSync(join(dir, 'app'), 0o755);
    chmodSync(dataDir, 0o755);
    return { dir, dataDir };
  };
  const keyOf = (project: string) =>
    createHash('sha256').update(realpathSync(project)).digest('hex').slice(0, 12);

  afterAll(() => {
    for (const dir of made) {
      rmSync(join(SYSTEM_FOLDER, `app-${keyOf(join(dir, 'app'))}`), { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the cluster in .data when postgres may enter it', () => {
    const { dataDir } = folder(0o755);
    expect(firstClosed(owner(), dataDir)).toBeNull();
    expect(clusterFolder(owner(), dataDir)).toBe(join(dataDir, 'postgres'));
  });

  it('puts it under /var/lib/statuspage-read-api, one folder per project, when postgres cannot enter', () => {
    const one = folder(0o700);
    const two = folder(0o700);
    expect(firstClosed(owner(), join(one.dataDir, 'postgres'))).toBe(one.dir);
    const cluster = clusterFolder(owner(), one.dataDir);
    expect(cluster).toBe(join(SYSTEM_FOLDER, `app-${keyOf(dirname(one.dataDir))}`, 'postgres'));
    expect(statSync(dirname(cluster)).mode & 0o777).toBe(0o755);
    expect(clusterFolder(owner(), one.dataDir)).toBe(cluster);
    expect(clusterFolder(owner(), two.dataDir)).not.toBe(cluster);
  });

  it('never starts an empty cluster beside one an earlier run left where postgres can no longer enter', () => {
    const { dir, dataDir } = folder(0o700);
    mkdirSync(join(dataDir, 'postgres'));
    writeFileSync(join(dataDir, 'postgres', 'PG_VERSION'), '18\n');
    expect(() => clusterFolder(owner(), dataDir)).toThrow(
      `The embedded PostgreSQL (data in ${dataDir}/postgres) could not start: the user postgres cannot enter ${dir}.\n` +
        `Let it in (chmod o+x ${dir}), or set DATABASE_URL to a server of your own.`,
    );
  });
});
