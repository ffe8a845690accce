// The two listeners as tests use them: the public API over a projector environment's models, and
// the ingest router alone over a test database, with a fixed clock and no projector to wake.
import type { Server } from 'node:http';
import express from 'express';
import { pino } from 'pino';
import type { DatabasePool } from 'slonik';
import request from 'supertest';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { ingestRouter } from '../../src/ingest/ingestRouter.ts';
import { URLS, type ProjectorEnv } from './projectorEnv.ts';

export const INGEST_TOKEN = 'ingest-token-for-tests-0123456789';

/** The public API (Express app) over `env`'s models at `env`'s clock, logging nothing. */
export const appOf = (
  env: ProjectorEnv,
  config: Config,
  extra: Partial<Parameters<typeof buildApp>[0]> = {},
) =>
  buildApp({
    redis: env.redis,
    prefix: env.prefix,
    clock: env.now,
    config,
    log: pino({ level: 'silent' }),
    ...extra,
  });

/** The public API serving `env`'s models on a free port (close it with the server's `close`). */
export const listenApi = (env: ProjectorEnv): Server => {
  const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
  const app = appOf(env, config);
  return app.listen(0, '127.0.0.1');
};

/** GET `path`, expecting 200; its JSON body. */
export const getOk = async (server: Server, path: string): Promise<unknown> => {
  const res = await request(server).get(path);
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.body as unknown;
};

/** `POST /v1/events` and the rest of the ingest router, authenticated by INGEST_TOKEN. */
export const ingestApp = (db: DatabasePool, now: Date): express.Express =>
  express().use(
    ingestRouter({
      db,
      ingestToken: INGEST_TOKEN,
      clock: () => now,
      log: pino({ level: 'silent' }),
      wake: () => Promise.resolve(),
    }),
  );
