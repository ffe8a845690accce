// What every shipped proxy recipe must hold, run against a real proxy in front of the service as
// deployed (edgeTopology.ts): a private page stays private whichever way its token travels, every
// reader is a client of its own (token throttle, live-stream cap), a client's X-Forwarded-For
// changes nothing, the email subscription flow works end to end (edgeSubscriptions.ts), and, for
// the caching proxies, a Redis outage leaves readers with the stale answers until Redis is back,
// then fresh ones.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  get,
  openStream,
  PRIVATE_TOKEN,
  sleep,
  startTopology,
  STREAMS_PER_CLIENT,
  type Answer,
  type OpenStream,
  type Topology,
} from './edgeTopology.ts';
import { launchChromium } from './browser.ts';
import { edgeSubscriptionTests } from './edgeSubscriptions.ts';
import type { ProxyProcess } from './proxyProcess.ts';

type Proxy = ProxyProcess;

export type Outage = Readonly<{
  /** Makes the proxy's copy of page `acme`'s answers stale, as time or a purge would. */
  expire: (proxy: Proxy) => Promise<void>;
  /** How long readers are watched while Redis is down (past the proxy's own stale windows). */
  watchMs: number;
}>;

const PRIVATE_PATHS = [
  '/api/status-pages/vault/incidents',
  '/api/embed/status?slug=vault',
  '/api/status/vault/charts',
  '/badge/vault.svg',
  '/s/vault/api/v2/summary.json',
];
const STALE_PATH = '/api/status-pages/acme/incidents';
const wrongToken = (i: number) => `wrong-guess-${i}-0123456789abcdef`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const withQueryToken = (path: string) =>
  `${path}${path.includes('?') ? '&' : '?'}auth_token=${PRIVATE_TOKEN}`;
const incidentStates = (answer: Answer) =>
  (JSON.parse(answer.body) as { incidents: { state: string }[] }).incidents.map((i) => i.state);

export const edgeSuite = (name: string, startProxy: (apiPort: number) => Promise<Proxy>, outage?: Outage) =>
  describe(`through ${name}, in front of two API processes`, () => {
    let topology: Topology;
    let proxy: Proxy;
    const at = (path: string) => `${proxy.url}${path}`;

    /** Sends wrong tokens from `from` until the throttle answers 429; how many it took. */
    const guessUntilThrottled = async (from: string, headers: Record<string, string> = {}) => {
      for (let i = 0; i < 60; i += 1) {
        const answer = await get(at(PRIVATE_PATHS[0]!), {
          from,
          headers: { ...headers, ...bearer(wrongToken(i)) },
        });
        if (answer.status === 429) return i;
        expect(answer.status).toBe(401);
      }
      throw new Error(`60 wrong tokens from ${from} and no 429`);
    };

    beforeAll(async () => {
      topology = await startTopology();
      proxy = await startProxy(topology.apiPort);
    }, 120_000);
    afterAll(async () => {
      await proxy?.stop();
      await topology?.close();
    });

    it('serves a private page to the reader with the token (Bearer or query) and never to one without', async () => {
      for (const path of PRIVATE_PATHS) {
        const byBearer = [await get(at(path), { headers: bearer(PRIVATE_TOKEN) })];
        byBearer.push(await get(at(path), { headers: bearer(PRIVATE_TOKEN) }));
        const byQuery = await get(at(withQueryToken(path)));
        expect([path, ...byBearer.map((a) => a.status), byQuery.status]).toEqual([path, 200, 200, 200]);
        for (const from of ['127.0.0.2', '127.0.0.1']) {
          const anonymous = await get(at(path), { from });
          expect({ path, from, status: anonymous.status }).toEqual({ path, from, status: 401 });
          expect(anonymous.body).not.toContain('Vault');
        }
      }
      const incidents = await get(at(PRIVATE_PATHS[0]!), { headers: bearer(PRIVATE_TOKEN) });
      expect(incidents.body).toContain('Vault secret incident');
    });

    it('shows a private status page in a browser that has its token, and only the token form to one without', async () => {
      const browser = await launchChromium();
      try {
        // The page's script reads the API with the token as Authorization: Bearer.
        const reader = await browser.newPage();
        await reader.goto(at(`/s/vault?auth_token=${PRIVATE_TOKEN}`));
        await expect
          .poll(() => reader.locator('.monitor-name').allTextContents(), { timeout: 20_000 })
          .toEqual(['Vault API']);
        const stranger = await (await browser.newContext()).newPage();
        await stranger.goto(at('/s/vault'));
        await stranger.getByLabel('Access token').waitFor();
        expect(await stranger.locator('.monitor').count()).toBe(0);
        expect(await stranger.content()).not.toContain('Vault secret incident');
      } finally {
        await browser.close();
      }
    });

    it('counts wrong tokens per reader: a guesser at 127.0.0.2 locks out only itself', async () => {
      await guessUntilThrottled('127.0.0.2');
      const guesser = await get(at(PRIVATE_PATHS[0]!), { from: '127.0.0.2', headers: bearer(PRIVATE_TOKEN) });
      const reader = await get(at(PRIVATE_PATHS[0]!), { from: '127.0.0.1', headers: bearer(PRIVATE_TOKEN) });
      expect([guesser.status, reader.status]).toEqual([429, 200]);
    });

    it('believes no X-Forwarded-For a client sends: it neither frames another reader nor escapes the throttle', async () => {
      await guessUntilThrottled('127.0.0.4', { 'X-Forwarded-For': '127.0.0.5' });
      const framed = await get(at(PRIVATE_PATHS[0]!), { from: '127.0.0.5', headers: bearer(PRIVATE_TOKEN) });
      const escaping = await get(at(PRIVATE_PATHS[0]!), {
        from: '127.0.0.4',
        headers: { ...bearer(PRIVATE_TOKEN), 'X-Forwarded-For': '127.0.0.6' },
      });
      expect([framed.status, escaping.status]).toEqual([200, 429]);
    });

    it('gives each reader a live-stream cap of its own', async () => {
      const streams: OpenStream[] = [];
      try {
        let refused = false;
        for (let i = 0; i < 4 * STREAMS_PER_CLIENT && !refused; i += 1) {
          const stream = await openStream(at('/api/embed/stream?slug=acme'), '127.0.0.2');
          streams.push(stream);
          refused = stream.status === 429;
        }
        expect(refused).toBe(true);
        const others: number[] = [];
        for (let i = 0; i < STREAMS_PER_CLIENT; i += 1) {
          const stream = await openStream(at('/api/embed/stream?slug=acme'), '127.0.0.1');
          streams.push(stream);
          others.push(stream.status);
        }
        expect(others).toEqual(Array<number>(STREAMS_PER_CLIENT).fill(200));
      } finally {
        for (const stream of streams) stream.close();
      }
    });

    edgeSubscriptionTests(() => ({ topology, at }));

    if (outage)
      it(
        'answers from its stale copy while Redis is down, and fresh answers once it is back',
        async () => {
          const before = await get(at(STALE_PATH));
          expect((await get(at(STALE_PATH))).body).toBe(before.body);
          expect([before.status, incidentStates(before)]).toEqual([200, ['investigating']]);
          // A change the proxy is not told about, then the outage: the proxy holds the answer before it.
          await topology.project({
            type: 'incident.updated',
            page: 'acme',
            at: new Date().toISOString(),
            data: { incident_id: 'i1', state: 'identified', message: 'Found it' },
          });
          await topology.redis.kill();
          onTestFinished(() => topology.redis.start().catch(() => undefined)); // what a failure leaves
          for (let tries = 0; (await get(`${topology.apiUrl}${STALE_PATH}`)).status !== 503; tries += 1) {
            if (tries > 100) throw new Error('the API did not answer 503 without Redis');
            await sleep(100);
          }
          expect((await get(`${topology.apiUrl}/healthz`)).status).toBe(200); // the probe sees nothing wrong
          await outage.expire(proxy);
          const seen: [number, string][] = [];
          for (const end = Date.now() + outage.watchMs; Date.now() < end; await sleep(500)) {
            const answer = await get(at(STALE_PATH), { from: '127.0.0.3' });
            seen.push([answer.status, answer.body]);
          }
          expect(seen).toEqual(seen.map(() => [200, before.body]));

          await topology.redis.start();
          let fresh: Answer | undefined;
          for (let tries = 0; fresh === undefined; tries += 1) {
            if (tries > 200) throw new Error('no fresh answer within 20 s of Redis returning');
            const answer = await get(at(STALE_PATH));
            if (answer.status === 200 && answer.body !== before.body) fresh = answer;
            else await sleep(100);
          }
          expect(incidentStates(fresh)).toEqual(['identified']);
        },
        60_000 + (outage?.watchMs ?? 0),
      );
  });
