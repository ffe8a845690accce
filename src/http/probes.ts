// Liveness and readiness for orchestrators (operations.md). Readiness asks both backing
// services, each bounded by a timeout, so a hung connection reads as "not ready", not as a hang.
import { Router } from 'express';
import type { RedisClient } from '../store/redisClient.ts';
import { sql, type DatabasePool } from 'slonik';
import { settleWithin } from '../shared/settleWithin.ts';

// Below 2 s, so that the probe itself answers within the API's 2 s budget.
export const PROBE_TIMEOUT_MS = 1_500;

type ProbesDeps = { db: DatabasePool; redis: RedisClient };

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

/** GET /healthz and GET /readyz. */
export const probesRouter = (deps: ProbesDeps): Router =>
  Router()
    .get('/healthz', (_req, res) => {
      res.set('Cache-Control', 'no-store').json({ status: 'ok' });
    })
    .get('/readyz', async (_req, res) => {
      const failing = await failingDependencies(deps);
      res.set('Cache-Control', 'no-store');
      if (failing.length === 0) res.json({ status: 'ready' });
      else res.status(503).json({ status: 'not ready', failing });
    });
