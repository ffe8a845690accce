// The first run tells the truth: the welcome text of `npm start` holds only URLs that answer,
// on the port the API really listens on (PORT without PUBLIC_BASE_URL).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildOperatorApp } from '../../src/operatorApp.ts';
import { welcomeText } from '../../src/runtime/printWelcome.ts';
import { gatherWelcome } from '../../src/runtime/welcome.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const N = '2026-11-22T12:00:30Z';
const log = pino({ level: 'silent' });

const listen = async (): Promise<{ server: Server; port: number }> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
};

/** The API and the operator listener over `env`, configured by PORT and INGEST_PORT only. */
const startListeners = async (env: ProjectorEnv) => {
  const api = await listen();
  const operator = await listen();
  const config: Config = loadConfig({
    PORT: String(api.port),
    HOST: '127.0.0.1',
    INGEST_PORT: String(operator.port),
    REDIS_PREFIX: env.prefix,
  });
  api.server.on('request', buildApp({ redis: env.redis, prefix: env.prefix, clock: env.now, config, log }));
  operator.server.on(
    'request',
    buildOperatorApp({
      db: env.t.db,
      redis: env.redis,
      prefix: env.prefix,
      registry: new Registry(),
      log,
      clock: env.now,
    }),
  );
  const welcome = async () =>
    welcomeText(config, await gatherWelcome({ db: env.t.db, redis: env.redis, config, now: env.now }));
  const close = async () => {
    for (const { server } of [api, operator]) await new Promise((resolve) => server.close(resolve));
  };
  return { config, welcome, close, base: `http://127.0.0.1:${String(api.port)}` };
};

const urlsIn = (text: string): string[] => text.match(/https?:\/\/\S+/g) ?? [];

describe('the welcome text', () => {
  const envs: ProjectorEnv[] = [];
  const listeners: { close: () => Promise<void> }[] = [];
  const start = async (...events: object[]) => {
    const env = await startProjectorEnv({ now: N });
    envs.push(env);
    if (events.length > 0) await env.append(...events);
    await env.project();
    const running = await startListeners(env);
    listeners.push(running);
    return running;
  };
  afterAll(async () => {
    for (const running of listeners) await running.close();
    for (const env of envs) await env.close();
  });

  describe('with a public page', () => {
    let text: string;
    let base: string;
    let operator: string;
    beforeAll(async () => {
      const running = await start(
        pageConfigured('acme', { title: 'Acme' }),
        monitorConfigured('acme', 7, { name: 'API' }),
        check('acme', 7, '2026-11-22T12:00:00Z', 'up', 120),
      );
      text = await running.welcome();
      base = running.base;
      operator = `http://127.0.0.1:${String(running.config.ingestPort)}`;
    });

    it('uses the port the API listens on as the base URL', () => {
      expect(urlsIn(text)).toEqual([
        `${base}/s/acme`,
        `${base}/api/status-pages/acme/incidents`,
        `${base}/api/status-pages/acme/incidents/filter?month=2026-11`,
        `${base}/api/status-pages/acme/incidents/daily-counts?month=2026-11`,
        `${base}/api/status-pages/acme/maintenances`,
        `${base}/api/status-pages/acme/maintenances?status=in_progress`,
        `${base}/api/status-pages/acme/maintenances/filter?month=2026-11`,
        `${base}/api/status-pages/acme/maintenances/daily-counts?month=2026-11`,
        `${base}/api/status/acme/charts`,
        `${base}/api/status-page/acme/minute-data`,
        `${base}/api/status-pages/acme/monitors/7/availability?period=30d`,
        `${base}/api/status-pages/acme/sla`,
        `${base}/s/acme/sla/2026-11`,
        `${base}/api/embed/status?slug=acme&inc=1&rtm=60&upd=7`,
        `${base}/api/embed/markdown?slug=acme`,
        `${base}/badge/acme.svg`,
        `${base}/openapi.json`,
        `${operator}/v1/projection-status`,
        `${operator}/metrics`,
        `${operator}/readyz`,
      ]);
      expect(text).toContain('URLs for the page "acme"');
    });

    it('prints only URLs that answer 200', async () => {
      for (const url of urlsIn(text)) expect((await fetch(url)).status, url).toBe(200);
    });
  });

  it('leaves out what a private page refuses without its token', async () => {
    const running = await start(
      pageConfigured('vault', { auth_token: 'vault-token-0123456789abcdef' }),
      monitorConfigured('vault', 8),
      check('vault', 8, '2026-11-22T12:00:00Z'),
    );
    const urls = urlsIn(await running.welcome()).filter((url) => url.startsWith(running.base));
    expect(urls).toEqual([`${running.base}/s/vault`, `${running.base}/openapi.json`]);
  });

  it('prints no page URL when the log has no page', async () => {
    const running = await start();
    const text = await running.welcome();
    expect(urlsIn(text).filter((url) => url.startsWith(running.base))).toEqual([
      `${running.base}/openapi.json`,
    ]);
    expect(text).toContain('The log has no page yet');
  });
});
