// GET /healthz (liveness, also on the public port: operations.md) and GET /openapi.json.
import { STATIC_KEY } from '../edge/surrogateKeys.ts';
import { cacheControl, sendBody } from '../http/send.ts';
import { etagOf } from '../../projections/store/bytes.ts';
import type { Route } from '../http/routeTable.ts';

const HEALTH = '{"status":"ok"}';

/** `openApiJson` is the serialised document, built once at startup. */
export const metaRoutes = (openApiJson: string): Route[] => {
  const openApi = { body: Buffer.from(openApiJson, 'utf8'), etag: etagOf(openApiJson) };
  const health = { body: Buffer.from(HEALTH, 'utf8'), etag: etagOf(HEALTH) };
  return [
    {
      path: '/healthz',
      handle: (req, res) => sendBody(req, res, { ...health, cacheControl: cacheControl.noStore }),
    },
    {
      path: '/openapi.json',
      handle: (req, res) =>
        sendBody(req, res, {
          ...openApi,
          cacheControl: cacheControl.static,
          edge: { keys: [STATIC_KEY], lifetime: 'day' },
        }),
    },
  ];
};
