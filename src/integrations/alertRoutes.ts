// POST /v1/integrations/alertmanager/{slug} and /v1/integrations/grafana/{slug} on the operator
// listener: a notification's alerts become checks of the page's monitors (alertChecks.ts).
import express, {
  Router,
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { DatabasePool } from 'slonik';
import { z } from 'zod';
import { InvalidBatch, type AppendResult } from '../eventLog/appendEvents.ts';
import { sendError } from '../http/errors.ts';
import { isDatabaseUnavailable } from '../http/storeOutage.ts';
import { wakeAfterAppend, type Wake } from '../projector/queue.ts';
import { hashToken } from '../shared/hashToken.ts';
import type { Logger } from '../shared/logger.ts';
import type { MappingOptions, Unmapped } from './alertChecks.ts';
import { AlertmanagerPayload, GrafanaPayload, type AlertPayload } from './alertPayload.ts';
import { appendPlanned } from './appendPlanned.ts';
import { mayWriteTo } from './integrationAuth.ts';
import type { IntegrationMetrics } from './integrationMetrics.ts';
import { planNotification } from './notificationPlan.ts';
import { pageExists } from './pageMonitors.ts';

export type AlertRouteDeps = Readonly<{
  db: DatabasePool;
  ingestToken: string | null;
  clock: () => Date;
  log: Logger;
  wake: Wake;
  metrics?: IntegrationMetrics;
}>;

type Source = 'alertmanager' | 'grafana';

const MAX_BODY = '10mb';
/** A notification of 1,000 alerts waits behind another of its page: longer than ingest's 1 s. */
const LOCK_TIMEOUT_MS = 5_000;

const LabelName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);
const Query = z.object({
  monitor_label: LabelName.default('statuspage_monitor'),
  component_label: LabelName.default('statuspage_component'),
  degraded: z
    .string()
    .max(1_000)
    .default('')
    .transform((list) => new Set(list.split(',').filter((s) => s !== ''))),
});

const mappingOf = (req: Request): MappingOptions | null => {
  const query = Query.safeParse(req.query);
  if (!query.success) return null;
  return {
    monitorLabel: query.data.monitor_label,
    componentLabel: query.data.component_label,
    degraded: query.data.degraded,
  };
};

const monthsOf = (payload: AlertPayload): Set<string> =>
  new Set(
    payload.alerts.flatMap((alert) =>
      [alert.startsAt, ...(alert.status === 'resolved' ? [alert.endsAt] : [])].map((t) =>
        new Date(Date.parse(t)).toISOString().slice(0, 7),
      ),
    ),
  );

export const alertRoutes = (deps: AlertRouteDeps): Router => {
  const tokenHash = deps.ingestToken === null ? null : hashToken(deps.ingestToken);

  const count = (source: Source, result: 'accepted' | 'refused') =>
    deps.metrics?.notification(source, result);

  const receive = async (
    req: Request,
    res: Response,
    notification: { source: Source; payload: AlertPayload; mapping: MappingOptions },
  ) => {
    const { source, payload, mapping } = notification;
    const page = String(req.params['slug'] ?? '');
    const now = deps.clock();
    let unmapped: Unmapped[] = [];
    let paths: string[] = [];
    let result: AppendResult;
    try {
      result = await appendPlanned(deps.db, {
        now,
        months: monthsOf(payload),
        lockTimeoutMs: LOCK_TIMEOUT_MS,
        plan: async (tx) => {
          const plan = await planNotification(tx, { page, payload, mapping, now });
          ({ unmapped, paths } = plan);
          return plan;
        },
      });
    } catch (error) {
      if (!(error instanceof InvalidBatch)) throw error;
      const details = error.details.map((d) => ({ path: paths[d.index] ?? '', message: d.message }));
      sendError(res, 'invalid_payload', details);
      count(source, 'refused');
      return;
    }
    count(source, 'accepted');
    if (payload.truncatedAlerts > 0) {
      deps.metrics?.truncated(source, payload.truncatedAlerts);
      deps.log.warn({ page, truncated: payload.truncatedAlerts }, 'integrations: notification truncated');
    }
    void wakeAfterAppend(deps.wake, result.pages, (error) => {
      deps.log.warn({ err: (error as Error).message }, 'integrations: waking projectors failed');
    });
    res.status(200).json({ accepted: result.accepted, duplicates: result.duplicates, unmapped });
  };

  // Before the body is read: an unauthenticated client learns nothing of the limits (ingest.md).
  const admit: RequestHandler = async (req, res, next) => {
    const page = String(req.params['slug'] ?? '');
    if (!(await mayWriteTo(deps.db, req, page, tokenHash))) {
      res.setHeader('Connection', 'close');
      sendError(res, 'unauthorized');
    } else if (!(await pageExists(deps.db, page))) sendError(res, 'status_page_not_found');
    else next();
  };

  const endpoint =
    (schema: typeof AlertmanagerPayload | typeof GrafanaPayload, source: Source) =>
    async (req: Request, res: Response) => {
      const mapping = mappingOf(req);
      if (mapping === null) {
        sendError(res, 'invalid_parameters');
        count(source, 'refused');
        return;
      }
      const payload = schema.safeParse(req.body);
      if (!payload.success) {
        sendError(
          res,
          'invalid_payload',
          payload.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
        );
        count(source, 'refused');
        return;
      }
      await receive(req, res, { source, payload: payload.data, mapping });
    };

  const onError: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    const type = (error as { type?: unknown }).type;
    if (res.headersSent) {
      next(error);
    } else if (type === 'entity.too.large') {
      sendError(res, 'payload_too_large');
    } else if (type === 'entity.parse.failed' || type === 'charset.unsupported') {
      sendError(res, 'malformed_body');
    } else if (isDatabaseUnavailable(error)) {
      deps.log.warn({ err: (error as Error).message }, 'integrations: database unavailable');
      sendError(res, 'service_unavailable');
    } else {
      const { message, stack } = error as Error;
      deps.log.error({ err: { message, stack } }, 'integrations: unexpected error');
      sendError(res, 'internal');
    }
  };

  const json = express.json({ limit: MAX_BODY, type: () => true });
  return Router()
    .post('/v1/integrations/alertmanager/:slug', admit, json, endpoint(AlertmanagerPayload, 'alertmanager'))
    .post('/v1/integrations/grafana/:slug', admit, json, endpoint(GrafanaPayload, 'grafana'))
    .use(onError);
};
