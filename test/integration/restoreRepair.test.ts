// pg_dump of a projected log, pg_restore into a new PostgreSQL cluster (initdb'd by this file):
// the restored rows keep the old cluster's transaction ids, which the new server has not reached,
// so the gap-free reader sees none of them. The projecting services must refuse to start with a
// clear message, and `npm run repair-restore` must make the log readable in order again.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createDb, type Db } from '../../src/eventLog/createDb.ts';
import { LogRestored, verifyLogOrigin } from '../../src/eventLog/logOrigin.ts';
import { withDatabase } from '../../src/eventLog/migrate.ts';
import { readAfter, START } from '../../src/eventLog/readAfter.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { startPgCluster, type PgCluster } from '../support/pgCluster.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { dumpVersion } from '../support/readModels.ts';
import { scenario } from '../support/scenario.ts';
import { dropRedisPrefix, freshRedisPrefix } from '../support/testEnv.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

const nextXid = async (url: string): Promise<bigint> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ next: string }>(
      'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next',
    );
    return BigInt(rows[0]!.next);
  } finally {
    await client.end();
  }
};

/** Commits `count` empty transactions that each take an id: moves the server's id counter on. */
const burnXids = async (url: string, count: bigint) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `DO $$ BEGIN FOR i IN 1..${count} LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`,
    );
  } finally {
    await client.end();
  }
};

const runCommand = (command: string, databaseUrl: string, prefix: string) =>
  run(process.execPath, ['--import', 'tsx', 'src/main.ts', command], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: prefix,
      PROJECTOR_PARTITIONS: '2',
      WORKER_PROBE_PORT: '0',
      LOG_LEVEL: 'error',
    },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: unknown) => error as { code: number; stdout: string; stderr: string },
  );

/** Positions of the log as the projector reads it, from the start. */
const readablePositions = async (db: Db) =>
  (await readAfter(db, START, { limit: 1_000_000 })).rows.map((row) => row.position);

/** A version's keys, checkpoints reduced to their position (transaction ids differ by design). */
const modelsOf = async (env: ProjectorEnv, prefix: string) => {
  const active = (await readActive(env.redis, prefix))!;
  const dump = await dumpVersion(env.redis, prefix, active.version);
  return new Map(
    [...dump].map(([key, value]) => [
      key.slice(prefix.length),
      key.endsWith(':ckpt') ? String(value).split(':')[1] : value,
    ]),
  );
};

describe('a log restored into another PostgreSQL cluster', () => {
  let env: ProjectorEnv;
  let cluster: PgCluster;
  let restoredUrl: string;
  let restored: Db;
  let dir: string;
  let originalPositions: string[];
  const repairPrefix = freshRedisPrefix();

  beforeAll(async () => {
    cluster = await startPgCluster();
    env = await startProjectorEnv({ partitions: 2, now: '2026-11-22T12:00:00Z' });
    // The old cluster must be further along than the new one, as a long-running server is.
    const ahead = (await nextXid(cluster.url)) + 10_000n - (await nextXid(env.t.url));
    if (ahead > 0n) await burnXids(env.t.url, ahead);
    await env.append(...scenario('2026-11-22T10:00:00Z', 60));
    await env.project();
    originalPositions = await readablePositions(env.t.db);

    dir = await mkdtemp(join(tmpdir(), 'sp-dump-'));
    const file = join(dir, 'log.dump');
    await run(join(cluster.bin, 'pg_dump'), ['-Fc', '-f', file, env.t.url]);
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE restored');
    await admin.end();
    restoredUrl = withDatabase(cluster.url, 'restored');
    await run(join(cluster.bin, 'pg_restore'), ['--no-owner', '-d', restoredUrl, file]);
    restored = await createDb(restoredUrl);
  }, 120_000);
  afterAll(async () => {
    await restored.end();
    await dropRedisPrefix(env.redis, repairPrefix);
    await env.close();
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('hides every restored event from the reader (the condition this guards against)', async () => {
    const count = await restored.oneFirst(
      sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM event_log`,
    );
    expect(count).toBe(originalPositions.length);
    expect(await readablePositions(restored)).toEqual([]);
  });

  it('is detected at start: the workers refuse to run and say how to repair', async () => {
    await expect(verifyLogOrigin(restored)).rejects.toBeInstanceOf(LogRestored);
    await expect(verifyLogOrigin(env.t.db)).resolves.toBeUndefined();
    const work = await runCommand('work', restoredUrl, repairPrefix);
    expect(work.code).toBe(65);
    expect(work.stderr).toContain('The event log was written by another PostgreSQL cluster');
    expect(work.stderr).toContain('Its events carry transaction ids this server has not reached');
    expect(work.stderr).toContain('run `npm run repair-restore` once');
    expect((await runCommand('rebuild', restoredUrl, repairPrefix)).code).toBe(65);
  });

  it('npm run repair-restore makes the log readable in order, and rebuilds the models', async () => {
    const repair = await runCommand('repair-restore', restoredUrl, repairPrefix);
    expect(repair.stderr).toBe('');
    expect(repair.code).toBe(0);
    expect(repair.stdout).toContain(`renumbered the transaction ids of ${originalPositions.length} events`);
    expect(repair.stdout).toMatch(/rebuilt version 1 \(2 partitions\)/);
    await expect(verifyLogOrigin(restored)).resolves.toBeUndefined();
    expect(await readablePositions(restored)).toEqual(originalPositions);
    expect((await runCommand('repair-restore', restoredUrl, repairPrefix)).stdout).toContain(
      'nothing to renumber',
    );
  });

  it('projects the repaired log into exactly the models of the original', async () => {
    const prefix = freshRedisPrefix();
    const deps = { ...env.deps, db: restored };
    try {
      await rebuild(deps, { prefix, partitions: 2, graceMs: 0 });
      expect(await modelsOf(env, prefix)).toEqual(await modelsOf(env, env.prefix));
    } finally {
      await dropRedisPrefix(env.redis, prefix);
    }
  });

  it('reads events appended after the repair after the restored ones', async () => {
    const last = (await readAfter(restored, START, { limit: 1_000_000 })).rows.at(-1)!;
    await restored.query(sql.unsafe`
      INSERT INTO event_log (type, page, page_hash, at, data)
      SELECT type, page, page_hash, at, data FROM event_log WHERE position = ${last.position}`);
    const after = await readAfter(restored, { tx: last.tx, pos: last.position }, { limit: 10 });
    expect(after.rows).toHaveLength(1);
    expect(BigInt(after.rows[0]!.position)).toBeGreaterThan(BigInt(last.position));
  });
});
