// A private page's token: wrong ones are throttled per client and page (429 + Retry-After) while
// the right one keeps working from other clients; `Authorization: Bearer` works wherever
// `auth_token` does.
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

const TOKEN = 'vault-token-0123456789abcdef';
const PATHS = [
  '/api/status/vault/charts',
  '/api/status-page/vault/minute-data',
  '/api/status-pages/vault/incidents',
  '/api/status-pages/vault/maintenances/filter?month=2026-11',
  '/api/status-pages/vault/incidents/daily-counts?month=2026-11',
  '/api/status-pages/vault/monitors/21/availability?period=24h',
  '/api/embed/status?slug=vault',
  '/api/embed/markdown?slug=vault',
  '/badge/vault.svg',
  '/s/vault/feed.atom',
  '/s/vault/api/v2/summary.json',
];
const withToken = (path: string, token: string) =>
  `${path}${path.includes('?') ? '&' : '?'}auth_token=${token}`;

describe('private-page tokens', () => {
  let env: ProjectorEnv;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:30Z' });
    await env.append(
      pageConfigured('vault', { plan: 'business', auth_token: TOKEN }),
      monitorConfigured('vault', 21),
      check('vault', 21, '2026-11-22T12:00:00Z', 'up', 80),
    );
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, TRUST_PROXY: 'on' });
    const log = pino({ level: 'silent' });
    api = request(
      buildApp({
        redis: env.redis,
        prefix: env.prefix,
        clock: env.now,
        config,
        log,
        tokenThrottle: { maxFailures: 3, windowMs: 60_000 },
      }),
    );
  });
  afterAll(() => env.close());

  it('accepts Authorization: Bearer wherever auth_token is accepted, with the same answer', async () => {
    for (const path of PATHS) {
      const byQuery = await api.get(withToken(path, TOKEN)).set('X-Forwarded-For', '10.1.0.1');
      const byHeader = await api.get(path).set('Authorization', `Bearer ${TOKEN}`);
      expect([byHeader.status, byHeader.text], path).toEqual([200, byQuery.text]);
      const wrong = await api
        .get(path)
        .set('Authorization', 'Bearer wrong-token-0123456789abcdef')
        .set('X-Forwarded-For', `10.2.0.${PATHS.indexOf(path)}`);
      expect(wrong.status, path).not.toBe(200);
    }
  });

  it('throttles wrong tokens per client and page; the right token still works from elsewhere', async () => {
    const from = (ip: string, token: string) =>
      api.get(withToken('/api/status-pages/vault/incidents', token)).set('X-Forwarded-For', ip);
    for (let i = 0; i < 3; i += 1)
      expect((await from('10.3.0.1', `guess-${i}-0123456789abcdef`)).status).toBe(401);
    const throttled = await from('10.3.0.1', 'guess-4-0123456789abcdef');
    expect([throttled.status, throttled.body, Number(throttled.headers['retry-after']) > 0]).toEqual([
      429,
      { error: 'too many requests' },
      true,
    ]);
    expect((await from('10.3.0.1', TOKEN)).status).toBe(429); // not even checked until the window ends
    expect((await from('10.3.0.2', TOKEN)).status).toBe(200);
    // No token is no guess: the page's shell asks for one.
    for (let i = 0; i < 5; i += 1)
      expect((await api.get('/api/embed/status?slug=vault').set('X-Forwarded-For', '10.3.0.3')).status).toBe(
        401,
      );
  });
});
