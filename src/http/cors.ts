// The API is public and read-only, embedded in other sites: every response allows any origin, and a
// preflight on any path is answered here, before routing.
import type { RequestHandler } from 'express';

// Echo only a plain list of header names; anything else falls back to the wildcard.
const headerList = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

export const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*'); // plain setHeader: Express's res.set costs more per request
  if (req.method !== 'OPTIONS') {
    next();
    return;
  }
  const requested = req.headers['access-control-request-headers'];
  res.status(204).set({
    'Access-Control-Allow-Methods': 'GET, OPTIONS',
    'Access-Control-Allow-Headers': requested !== undefined && headerList.test(requested) ? requested : '*',
    'Access-Control-Max-Age': '86400',
  });
  res.end();
};
