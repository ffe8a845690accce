// GET /static/embed/v1/status.js: the widget script, static for the life of the process. It needs
// no read model, so it keeps working (and caching) while Redis is being rebuilt.
import { widgetScriptBytes, widgetScriptEtag } from '../embed/widgetScript.ts';
import { STATIC_KEY } from '../edge/surrogateKeys.ts';
import { cacheControl, sendBody } from '../http/send.ts';
import type { Route } from '../http/routeTable.ts';

export const widgetRoutes = (): Route[] => [
  {
    path: '/static/embed/v1/status.js',
    handle: (req, res) => {
      sendBody(req, res, {
        body: widgetScriptBytes,
        etag: widgetScriptEtag,
        contentType: 'text/javascript; charset=utf-8',
        cacheControl: cacheControl.static,
        edge: { keys: [STATIC_KEY], lifetime: 'day' },
      });
    },
  },
];
