// GET /v1/domains/check?domain=…: the `ask` of an on-demand TLS proxy, 200 only for a live page's
// custom domain (docs/deploy.md).
import { Router } from 'express';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { normalizeHost } from '../shared/hostName.ts';
import { sendError } from './errors.ts';
import type { Logger } from '../shared/logger.ts';

export const domainCheckRouter = (db: DatabasePool, log: Logger): Router =>
  Router().get('/v1/domains/check', async (req, res) => {
    const raw = req.query['domain'];
    if (typeof raw !== 'string' || raw === '') {
      sendError(res, 'missing_domain');
      return;
    }
    const domain = normalizeHost(raw);
    try {
      const page =
        domain === null
          ? null
          : await db.maybeOneFirst(sql.type(z.object({ slug: z.string() }))`
              SELECT slug FROM pages WHERE custom_domain = ${domain} AND NOT deleted`);
      if (page === null) sendError(res, 'not_found');
      else res.json({ domain, page });
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'domain check: database unavailable');
      sendError(res, 'service_unavailable');
    }
  });
