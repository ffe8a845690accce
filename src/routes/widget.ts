// GET /static/embed/v1/status.js: the widget script, static for the life of the process. It needs
// no read model, so it keeps working (and caching) while Redis is being rebuilt.
import { Router } from 'express';
import { widgetScriptBytes, widgetScriptEtag } from '../embed/widgetScript.ts';
import { cacheControl, sendBody } from '../http/send.ts';

export const widgetRoutes = (): Router =>
  Router().get('/static/embed/v1/status.js', (req, res) => {
    sendBody(req, res, {
      body: widgetScriptBytes,
      etag: widgetScriptEtag,
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: cacheControl.static,
    });
  });
