// GET /healthz (liveness, also on the public port: operations.md) and GET /openapi.json.
import { Router } from 'express';
import { cacheControl, sendBody } from '../http/send.ts';
import { etagOf } from '../models/bytes.ts';

const HEALTH = '{"status":"ok"}';

/** `openApiJson` is the serialised document, built once at startup. */
export const metaRoutes = (openApiJson: string): Router => {
  const openApi = { body: openApiJson, etag: etagOf(openApiJson) };
  const health = { body: HEALTH, etag: etagOf(HEALTH) };
  return Router()
    .get('/healthz', (req, res) => {
      sendBody(req, res, { ...health, cacheControl: cacheControl.noStore });
    })
    .get('/openapi.json', (req, res) => {
      sendBody(req, res, { ...openApi, cacheControl: cacheControl.static });
    });
};
