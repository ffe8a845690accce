// GET /s/{slug}: the small HTML page behind the default page_url. It follows the access rules of
// the page endpoints; errors are the usual JSON errors, never HTML.
import { Router } from 'express';
import { statusPageHtml } from '../embed/statusPageHtml.ts';
import { undecodablePathAs } from '../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { cacheFor, sendBody } from '../http/send.ts';
import { etagOf } from '../models/bytes.ts';

export const STATUS_PAGE_CACHE = 'public, max-age=60';

export const statusPageRoutes = ({ reads, locate, config }: RouteDeps): Router =>
  Router()
    .get('/s/:slug', async (req, res) => {
      const slug = parseSlug(req.params.slug, 'not_found');
      const access = await reads.access(await locate(slug));
      const { isPrivate, title } = admit(access, req.query, pageRules);
      // An access document written before titles were stored has none: the slug stands in.
      const body = statusPageHtml({ slug, title: title ?? slug, baseUrl: config.publicBaseUrl });
      sendBody(req, res, {
        body,
        etag: etagOf(body),
        contentType: 'text/html; charset=utf-8',
        cacheControl: cacheFor(isPrivate, STATUS_PAGE_CACHE),
      });
    })
    .use(undecodablePathAs('not_found'));
