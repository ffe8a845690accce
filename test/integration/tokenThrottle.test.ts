// A private page's token: wrong ones are throttled per client and page (429 + Retry-After) while
// the right one keeps working from other clients; `Authorization: Bearer` works wherever
// `auth_token` does.
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createTokenThrottle, tokenFailuresKey } from '../../src/http/tokenThrottle.ts';
import { hashToken } from '../../src/shared/hashToken.ts';
import { errorCodeOf } from '../../src/http/errors.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { redisAway } from '../support/testEnv.ts';

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
  /** A second API process on the same Redis: the throttle is one for the whole deployment. */
  let other: ReturnType<typeof request>;

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
    const app = () =>
      buildApp({
        redis: env.redis,
        prefix: env.prefix,
        clock: env.now,
        config,
        log,
        tokenThrottle: { maxFailures: 3, windowMs: 60_000 },
      });
    api = request(app());
    other = request(app());
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

  const guess = (to: ReturnType<typeof request>, ip: string, token: string) =>
    to
      .get('/api/status-pages/vault/incidents')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Forwarded-For', ip);

  it("counts a client's wrong tokens once across API processes", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push(
        (await guess(i % 2 === 0 ? api : other, '10.4.0.1', `guess-${i}-0123456789abcdef`)).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    expect([
      (await guess(other, '10.4.0.1', TOKEN)).status,
      (await guess(api, '10.4.0.2', TOKEN)).status,
    ]).toEqual([429, 200]);
  });

  it('counts a burst of concurrent guesses exactly, the right token among them included', async () => {
    const burst = Array.from({ length: 12 }, (_, i) =>
      guess(i % 2 === 0 ? api : other, '10.5.0.1', i === 11 ? TOKEN : `burst-${i}-0123456789abcdef`),
    );
    const statuses = (await Promise.all(burst)).map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    // Past three wrong ones, the right token is refused like any other: it is not even checked.
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(8);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as its IPv4 address', async () => {
    const v6 = ['2001:db8:7:1::1', '2001:db8:7:1::2', '2001:db8:7:1:ffff:0:0:9', '2001:db8:7:1::a'];
    const statuses = [];
    for (const [i, ip] of v6.entries())
      statuses.push((await guess(api, ip, `v6-${i}-0123456789abcdef`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await guess(other, '2001:db8:7:2::1', TOKEN)).status).toBe(200); // the next /64 is another client
    const v4 = [];
    for (const [i, ip] of ['10.6.0.1', '::ffff:10.6.0.1', '10.6.0.1', '::ffff:10.6.0.1'].entries())
      v4.push((await guess(other, ip, `v4-${i}-0123456789abcdef`)).status);
    expect(v4).toEqual([401, 401, 401, 429]);
  });

  it('keeps a digest of client and page in Redis, neither the address nor the token, for the window', async () => {
    const tokenHash = hashToken(TOKEN);
    expect((await guess(api, '10.7.0.1', 'wrong-7-0123456789abcdef')).status).toBe(401);
    const key = tokenFailuresKey(env.prefix, '10.7.0.1', tokenHash);
    expect(key).toMatch(new RegExp(`^${env.prefix}:token-failures:\\{[0-9a-f]{32}\\}$`));
    const [count, ttl] = [await env.redis.get(key), await env.redis.pttl(key)];
    expect([count, ttl > 0 && ttl <= 60_000]).toEqual(['1', true]);
  });

  it('lets a client try again once its window ends', async () => {
    const throttle = createTokenThrottle({
      redis: env.redis,
      prefix: env.prefix,
      settings: { maxFailures: 1, windowMs: 1000 },
    });
    await throttle.attempt('10.8.0.1', 'a-page', true);
    await expect(throttle.attempt('10.8.0.1', 'a-page', false)).rejects.toMatchObject({
      code: 'too_many_requests',
    });
    await sleep(1100);
    await expect(throttle.attempt('10.8.0.1', 'a-page', false)).resolves.toBeUndefined();
  });

  it('fails closed without Redis (503), but refuses a counter it already knows full (429)', async () => {
    const settings = { maxFailures: 1, windowMs: 60_000 };
    const throttle = createTokenThrottle({ redis: env.redis, prefix: env.prefix, settings });
    await throttle.attempt('10.9.0.1', 'b-page', true);
    await expect(throttle.attempt('10.9.0.1', 'b-page', true)).rejects.toMatchObject({
      code: 'too_many_requests',
    });
    // The process remembers the full counter until its window ends, whatever Redis holds now.
    await env.redis.del(tokenFailuresKey(env.prefix, '10.9.0.1', 'b-page'));
    await expect(throttle.attempt('10.9.0.1', 'b-page', false)).rejects.toMatchObject({
      code: 'too_many_requests',
    });
    const away = redisAway();
    try {
      const cut = createTokenThrottle({ redis: away, prefix: env.prefix, settings });
      const outage = await cut.attempt('10.9.0.2', 'b-page', false).catch((error: unknown) => error);
      expect(errorCodeOf(outage)).toBe('service_unavailable');
    } finally {
      away.disconnect();
    }
  });
});
