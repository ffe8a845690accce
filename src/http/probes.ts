// Liveness and readiness for orchestrators (operations.md). /readyz asks both backing services,
// /readyz/reads only what public reads need (Redis and an active model version: an API pod's
// readiness, which a PostgreSQL failover must not empty); each bounded by a timeout, so a hung
// connection reads as "not ready", not as a hang.
import { Router, type Response } from 'express';
import type { RedisClient } from '../store/redisClient.ts';
import { sql, type DatabasePool } from 'slonik';
import { settleWithin } from '../shared/settleWithin.ts';
import { readActive } from '../store/control/versions.ts';

// Below 2 s, so that the probe itself answers within the API's 2 s budget.
export const PROBE_TIMEOUT_MS = 1_500;

type ProbesDeps = { db: DatabasePool; redis: RedisClient; prefix: string };

/** True when `check` settles successfully within `ms`. */
const answersWithin = async (check: () => Promise<unknown>, ms: number): Promise<boolean> =>
  (await settleWithin(check(), ms)).ok;

/** The dependencies that do not answer within `ms` (the same checks as GET /readyz). */
export const failingDependencies = async (deps: ProbesDeps, ms = PROBE_TIMEOUT_MS): Promise<string[]> => {
  const [postgres, redis] = await Promise.all([
    answersWithin(() => deps.db.query(sql.unsafe`SELECT 1`), ms),
    answersWithin(() => deps.redis.ping(), ms),
  ]);
  return [...(postgres ? [] : ['postgres']), ...(redis ? [] : ['redis'])];
};

/** What public reads lack now: `redis` when it does not answer within `ms`, else `read_models` without an active version. */
const missingForReads = async ({ redis, prefix }: ProbesDeps, ms = PROBE_TIMEOUT_MS): Promise<string[]> => {
  const active = await settleWithin(readActive(redis, prefix), ms);
  if (!active.ok) return ['redis'];
  return active.value === null ? ['read_models'] : [];
};

const sendReadiness = (res: Response, failing: string[]): void => {
  res.set('Cache-Control', 'no-store');
  if (failing.length === 0) res.json({ status: 'ready' });
  else res.status(503).json({ status: 'not ready', failing });
};

/** GET /healthz, GET /readyz and GET /readyz/reads. */
export const probesRouter = (deps: ProbesDeps): Router =>
  Router()
    .get('/healthz', (_req, res) => {
      res.set('Cache-Control', 'no-store').json({ status: 'ok' });
    })
    .get('/readyz', async (_req, res) => sendReadiness(res, await failingDependencies(deps)))
    .get('/readyz/reads', async (_req, res) => sendReadiness(res, await missingForReads(deps)));
