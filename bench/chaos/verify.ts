// After the chaos: wait until every event is projected, then compare the models the workers built
// through every fault, byte for byte, with a clean rebuild of the same log at the same instant.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { sql, type DatabasePool } from 'slonik';
import type { Db } from '../../src/eventLog/createDb.ts';
import { z } from 'zod';
import { allVersionsPattern, versionOfKey } from '../../projections/store/control/keys.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { scanKeys } from '../../src/store/scanKeys.ts';
import { projectionStatus } from '../../src/projector/projectionStatus.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { runPartition, type ProjectorDeps } from '../../src/projector/runPartition.ts';
import { dumpVersion } from '../../test/support/readModels.ts';

/** Until the projection lag is 0 (and stays so for a second), or `timeoutMs`; the last status. */
export const waitForLagZero = async (db: DatabasePool, redis: Redis, prefix: string, timeoutMs: number) => {
  let zeroSince = 0;
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    const status = await projectionStatus(db, redis, prefix).catch(() => null);
    if (status?.lag_events === 0) {
      zeroSince ||= Date.now();
      if (Date.now() - zeroSince > 1000) return status;
    } else zeroSince = 0;
    await sleep(200);
  }
  return projectionStatus(db, redis, prefix);
};

export const logCounts = async (db: DatabasePool) =>
  db.one(sql.type(z.object({ events: z.number(), ids: z.number() }))`
    SELECT count(*)::int AS events, count(DISTINCT event_id)::int AS ids FROM event_log`);

/** Versions with keys in Redis other than the active one (a killed rebuild's, not collected). */
export const staleVersions = async (redis: Redis, prefix: string): Promise<number[]> => {
  const active = (await readActive(redis, prefix))?.version;
  const versions = new Set(
    (await scanKeys(redis, allVersionsPattern(prefix))).map((key) => versionOfKey(prefix, key)),
  );
  return [...versions].filter((v): v is number => v !== null && v !== active);
};

export type Comparison = Readonly<{ keys: number; differing: string[] }>;

/**
 * Renders the served version at one instant (every page, as a clock tick does), rebuilds the log
 * into a new version at the same instant, and lists the keys whose values differ. Run with the
 * workers stopped: nothing else writes meanwhile.
 */
export const compareWithRebuild = async (
  db: Db,
  redis: Redis,
  prefix: string,
  urls: ProjectorDeps['urls'],
): Promise<Comparison> => {
  const active = await readActive(redis, prefix);
  if (!active) return { keys: 0, differing: ['(no active version)'] };
  const at = new Date();
  const deps: ProjectorDeps = {
    db,
    redis,
    clock: () => at,
    urls,
    batchSize: 2000,
    log: pino({ level: 'silent' }),
  };
  for (let partition = 0; partition < active.partitions; partition += 1) {
    const ref = { prefix, version: active.version, partition, partitions: active.partitions };
    await runPartition(deps, ref, { mode: 'rebuild' }); // caught up: renders every page at `at`
  }
  const served = await dumpVersion(redis, prefix, active.version);
  const clean = await rebuild(deps, { prefix, partitions: active.partitions, graceMs: 0 });
  const rebuilt = await dumpVersion(redis, prefix, clean.version);
  const keys = new Set([...served.keys(), ...rebuilt.keys()]);
  const differing = [...keys].filter(
    (key) => JSON.stringify(served.get(key)) !== JSON.stringify(rebuilt.get(key)),
  );
  return { keys: keys.size, differing };
};
