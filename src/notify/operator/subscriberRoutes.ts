// The operator API for subscribers (notifications.md), behind INGEST_TOKEN like ingest. Answers
// carry no secret but the one just made, and no full address; logs carry ids and channels only.
import express, { Router, type ErrorRequestHandler, type Request } from 'express';
import type { DatabasePool } from 'slonik';
import { sendError } from '../../http/errors.ts';
import { isDatabaseUnavailable } from '../../http/storeOutage.ts';
import { pageMonitors } from '../../integrations/pageMonitors.ts';
import { operatorPageGate, slugOf } from '../../integrations/operatorPageGate.ts';
import type { Logger } from '../../shared/logger.ts';
import { SubscriberInput } from './subscriberInput.ts';
import {
  createSubscriber,
  deleteSubscriber,
  enableSubscriber,
  listDeliveries,
  listSubscribers,
  rotateSecret,
} from './subscriberStore.ts';

export type SubscriberRouteDeps = Readonly<{ db: DatabasePool; ingestToken: string | null; log: Logger }>;

const idOf = (req: Request) => String(req.params['id'] ?? '');

export const subscriberRoutes = (deps: SubscriberRouteDeps): Router => {
  const admit = operatorPageGate(deps.db, deps.ingestToken);
  const base = '/v1/pages/:slug/subscribers';
  const onError: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    const type = (error as { type?: unknown }).type;
    if (res.headersSent) next(error);
    else if (type === 'entity.too.large') sendError(res, 'payload_too_large');
    else if (type === 'entity.parse.failed' || type === 'charset.unsupported')
      sendError(res, 'malformed_body');
    else if (isDatabaseUnavailable(error)) sendError(res, 'service_unavailable');
    else next(error);
  };

  return Router()
    .post(base, admit, express.json({ limit: '64kb', type: () => true }), async (req, res) => {
      const parsed = SubscriberInput.safeParse(req.body);
      if (!parsed.success) {
        const details = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
        sendError(res, 'invalid_payload', details);
        return;
      }
      const names = new Set((await pageMonitors(deps.db, slugOf(req))).map((m) => m.name));
      const unknown = parsed.data.components.filter((name) => !names.has(name));
      if (unknown.length > 0) {
        sendError(
          res,
          'invalid_payload',
          unknown.map((name) => ({ path: 'components', message: `unknown component: ${name}` })),
        );
        return;
      }
      const created = await createSubscriber(deps.db, slugOf(req), parsed.data);
      if (created === null) {
        sendError(res, 'subscriber_exists');
        return;
      }
      deps.log.info(
        { page: slugOf(req), subscriber: created.id, channel: parsed.data.channel },
        'subscriber created',
      );
      res.status(201).set('Cache-Control', 'no-store').json(created);
    })
    .get(base, admit, async (req, res) => {
      res.set('Cache-Control', 'no-store').json({ subscribers: await listSubscribers(deps.db, slugOf(req)) });
    })
    .delete(`${base}/:id`, admit, async (req, res) => {
      if (!(await deleteSubscriber(deps.db, slugOf(req), idOf(req)))) {
        sendError(res, 'not_found');
        return;
      }
      deps.log.info({ page: slugOf(req), subscriber: idOf(req) }, 'subscriber erased');
      res.status(204).end();
    })
    .post(`${base}/:id/rotate-secret`, admit, async (req, res) => {
      const rotated = await rotateSecret(deps.db, slugOf(req), idOf(req));
      if (rotated === null) sendError(res, 'not_found');
      else if (rotated === 'not_webhook') sendError(res, 'not_a_webhook_subscriber');
      else res.set('Cache-Control', 'no-store').json(rotated);
    })
    .get(`${base}/:id/deliveries`, admit, async (req, res) => {
      const deliveries = await listDeliveries(deps.db, slugOf(req), idOf(req));
      if (deliveries === null) sendError(res, 'not_found');
      else res.set('Cache-Control', 'no-store').json({ deliveries });
    })
    .post(`${base}/:id/enable`, admit, async (req, res) => {
      const enabled = await enableSubscriber(deps.db, slugOf(req), idOf(req));
      if (enabled === null) sendError(res, 'not_found');
      else res.set('Cache-Control', 'no-store').json(enabled);
    })
    .use(onError);
};
