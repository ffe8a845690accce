// The gate of the operator API's per-page routes (integration tokens, subscribers): INGEST_TOKEN
// as a Bearer token, then a page that exists. One place, so every such route refuses alike.
import type { Request, RequestHandler } from 'express';
import type { DatabasePool } from 'slonik';
import { pageExists } from './pageMonitors.ts';
import { bearerToken } from '../shared/bearerToken.ts';
import { hashToken, tokenMatches } from '../shared/hashToken.ts';
import { sendError } from '../http/errors.ts';

export const slugOf = (req: Request): string => String(req.params['slug'] ?? '');

export const operatorPageGate = (db: DatabasePool, ingestToken: string | null): RequestHandler => {
  const tokenHash = ingestToken === null ? null : hashToken(ingestToken);
  return async (req, res, next) => {
    if (tokenHash === null) sendError(res, 'ingest_disabled');
    else if (!tokenMatches(bearerToken(req.headers.authorization), tokenHash)) sendError(res, 'unauthorized');
    else if (!(await pageExists(db, slugOf(req)))) sendError(res, 'status_page_not_found');
    else next();
  };
};
