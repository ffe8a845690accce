// The operator API for integration and push tokens (docs/integrations.md), behind INGEST_TOKEN:
// a token is shown once, in the answer that creates it; the service keeps its digest only.
import { Router } from 'express';
import type { DatabasePool } from 'slonik';
import { sendError } from '../http/errors.ts';
import { operatorPageGate, slugOf } from './operatorPageGate.ts';
import { createToken, listTokens, revokeToken } from './integrationTokens.ts';
import { pageMonitors } from './pageMonitors.ts';

export type TokenRouteDeps = Readonly<{
  db: DatabasePool;
  ingestToken: string | null;
  /** PUBLIC_BASE_URL: push URLs are on the public port. */
  publicBaseUrl: string;
}>;

const pushUrl = (publicBaseUrl: string, token: string): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/push/${token}`;

export const tokenRoutes = (deps: TokenRouteDeps): Router => {
  const admit = operatorPageGate(deps.db, deps.ingestToken);

  return Router()
    .post('/v1/pages/:slug/integration-tokens', admit, async (req, res) => {
      const created = await createToken(deps.db, slugOf(req), 'integration');
      res.status(201).set('Cache-Control', 'no-store').json(created);
    })
    .get('/v1/pages/:slug/integration-tokens', admit, async (req, res) => {
      res.set('Cache-Control', 'no-store').json({ tokens: await listTokens(deps.db, slugOf(req)) });
    })
    .delete('/v1/pages/:slug/integration-tokens/:id', admit, async (req, res) => {
      if (await revokeToken(deps.db, slugOf(req), String(req.params['id']))) res.status(204).end();
      else sendError(res, 'not_found');
    })
    .post('/v1/pages/:slug/monitors/:id/push-token', admit, async (req, res) => {
      const id = String(req.params['id']);
      const monitor = (await pageMonitors(deps.db, slugOf(req))).find((m) => String(m.id) === id);
      if (monitor === undefined) {
        sendError(res, 'not_found');
        return;
      }
      if (monitor.type !== 'push') {
        sendError(res, 'not_a_push_monitor');
        return;
      }
      const created = await createToken(deps.db, slugOf(req), 'push', monitor.id);
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ ...created, push_url: pushUrl(deps.publicBaseUrl, created.token) });
    });
};
