// The one route table matches as Express's routers did: literal segments case-insensitive, one
// trailing slash ignored, `:name` one non-empty segment, GET and HEAD only; an undecodable
// parameter is the route's own "not found" (or its own error answer).
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ApiError, errorHandler, notFoundHandler } from '../../src/http/errors.ts';
import { routeTable } from '../../src/http/routeTable.ts';
import { pino } from 'pino';

const app = express();
app.use(
  routeTable([
    { path: '/a/:slug/b', handle: (req, res) => void res.json({ slug: req.params['slug'], route: 'b' }) },
    { path: '/a/:slug', handle: (req, res) => void res.json({ slug: req.params['slug'] }) },
    {
      path: '/c/:slug',
      undecodable: 'status_page_not_found',
      handle: () => Promise.reject(new ApiError('forbidden')),
    },
    {
      path: '/d/:file',
      handle: () => {
        throw new Error('boom');
      },
      onError: (err, _req, res, _next) => void res.status(418).json({ own: (err as Error).name }),
    },
  ]),
);
app.use(notFoundHandler);
app.use(errorHandler(pino({ level: 'silent' })));

describe('routeTable', () => {
  it.each([
    ['/a/x', { slug: 'x' }],
    ['/A/x', { slug: 'x' }],
    ['/a/x/', { slug: 'x' }],
    ['/a/X%20y', { slug: 'X y' }],
    ['/a/x/B', { slug: 'x', route: 'b' }],
  ])('%s matches', async (path, body) => {
    const res = await request(app).get(path);
    expect([res.status, res.body]).toEqual([200, body]);
  });

  it.each(['/a', '/a//b', '/a/x/b/c', '/b/x', '/'])('%s is not found', async (path) => {
    const res = await request(app).get(path);
    expect([res.status, res.body]).toEqual([404, { error: 'not found' }]);
  });

  it('answers only GET and HEAD', async () => {
    expect((await request(app).head('/a/x')).status).toBe(200);
    expect((await request(app).post('/a/x')).status).toBe(404);
  });

  it('maps an undecodable parameter to the route’s code, and handler errors through the error table', async () => {
    expect((await request(app).get('/a/%E0')).body).toEqual({ error: 'not found' });
    expect((await request(app).get('/c/%E0')).body).toEqual({ error: 'status page not found' });
    expect((await request(app).get('/c/x')).body).toEqual({ error: 'forbidden' });
  });

  it('lets a route answer its own errors, undecodable parameters included', async () => {
    expect((await request(app).get('/d/x')).body).toEqual({ own: 'Error' });
    expect((await request(app).get('/d/%E0')).body).toEqual({ own: 'URIError' });
  });
});
