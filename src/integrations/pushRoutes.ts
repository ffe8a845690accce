// GET or POST /push/{token} on the public port: a push monitor reports in (docs/integrations.md).
// `?status=up|down|degraded` (default up), `?ping=<ms>`; one check a second per monitor at most,
// across every API process: the check's id names its monitor and second, so a second push in the
// same second is the log's duplicate.
import { Router, type Request, type Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { DatabasePool } from 'slonik';
import { z } from 'zod';
import { appendEvents } from '../eventLog/appendEvents.ts';
import { MAX_RESPONSE_TIME_MS } from '../events/bounds.ts';
import { CheckStatus } from '../events/check.ts';
import { sendError } from '../http/errors.ts';
import { wakeAfterAppend, type Wake } from '../projector/queue.ts';
import type { Clock } from '../shared/clock.ts';
import type { Logger } from '../shared/logger.ts';
import { findToken } from './integrationTokens.ts';
import { pageMonitors } from './pageMonitors.ts';

export type PushDeps = Readonly<{ db: DatabasePool; wake: Wake; clock: Clock; log: Logger }>;

const PUSH_ROUTE = '/push/:token';
const SECOND_MS = 1_000;

/** The id of a push's check: one per monitor and second. */
export const pushCheckId = (monitorId: number, atMs: number): string =>
  `push-${String(monitorId)}-${String(Math.floor(atMs / SECOND_MS))}`;

const Query = z.object({
  status: CheckStatus.default('up'),
  ping: z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number)
    .pipe(z.number().max(MAX_RESPONSE_TIME_MS))
    .optional(),
});

/** The second of each monitor's last push in this process: a repeat is refused without a query. */
const createPushThrottle = () => {
  const last = new LRUCache<number, number>({ max: 100_000 });
  return (monitorId: number, nowMs: number): boolean => {
    const second = Math.floor(nowMs / SECOND_MS);
    if (last.get(monitorId) === second) return false;
    last.set(monitorId, second);
    return true;
  };
};

export const pushRoutes = (deps: PushDeps): Router => {
  const admit = createPushThrottle();
  const push = async (req: Request, res: Response) => {
    res.locals['route'] = PUSH_ROUTE;
    res.set('Cache-Control', 'no-store');
    const presented = String(req.params['token']);
    const now = deps.clock();
    const query = Query.safeParse(req.query);
    const found = await findToken(deps.db, presented, 'push');
    const monitor =
      found === null
        ? undefined
        : (await pageMonitors(deps.db, found.page)).find(
            (m) => m.id === found.monitorId && m.type === 'push',
          );
    if (found === null || monitor === undefined) {
      sendError(res, 'not_found');
      return;
    }
    if (!query.success) {
      sendError(res, 'invalid_parameters');
      return;
    }
    if (!admit(monitor.id, now.getTime())) {
      sendError(res, 'too_many_requests', undefined, 1);
      return;
    }
    const result = await appendEvents(
      deps.db,
      [
        {
          id: pushCheckId(monitor.id, now.getTime()),
          type: 'check.recorded',
          page: found.page,
          at: now.toISOString(),
          data: { monitor_id: monitor.id, status: query.data.status, response_time_ms: query.data.ping ?? 0 },
        },
      ],
      { now },
    );
    if (result.accepted === 0) {
      sendError(res, 'too_many_requests', undefined, 1); // another process took this second's push
      return;
    }
    void wakeAfterAppend(deps.wake, result.pages, (error) => {
      deps.log.warn({ err: (error as Error).message }, 'push: waking projectors failed');
    });
    res.status(200).json({ ok: true });
  };
  return Router().get(PUSH_ROUTE, push).post(PUSH_ROUTE, push);
};
