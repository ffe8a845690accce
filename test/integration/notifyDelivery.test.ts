// Delivery over real sockets to a local HTTPS receiver whose CA is made for the run.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolve } from '../../src/notify/delivery/checkedLookup.ts';
import { parseAllowHosts } from '../../src/notify/delivery/allowHosts.ts';
import { createJsonPoster, type DeliverySettings } from '../../src/notify/delivery/postJson.ts';
import {
  makeTestCertificates,
  startLocalReceiver,
  type LocalReceiver,
  type TestCertificates,
} from '../support/localHttps.ts';

let certs: TestCertificates;
let receiver: LocalReceiver;
const answers = new Map<string, (res: ServerResponse) => void>();

beforeAll(async () => {
  certs = makeTestCertificates();
  receiver = await startLocalReceiver(certs, (req, res) => {
    const answer = answers.get(req.path);
    if (answer) answer(res);
    else res.writeHead(200).end('ok');
  });
});
afterAll(() => receiver.close());

const poster = (settings: Partial<DeliverySettings> = {}) =>
  createJsonPoster({ allowHosts: parseAllowHosts('localhost'), extraCa: [certs.ca], ...settings });
const post = (path: string, settings: Partial<DeliverySettings> = {}, host = 'localhost') =>
  poster(settings)({ url: receiver.url(path, host), body: '{"hello":"world"}', headers: { 'x-test': path } });
const seen = (path: string) => receiver.requests.filter((r) => r.path === path);
const toLoopback: Resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);

describe('delivery: HTTPS POST to a subscriber URL', () => {
  it('posts the JSON body with its headers to an allowed host the extra CA vouches for', async () => {
    expect(await post('/ok')).toEqual({ kind: 'delivered', status: 200 });
    expect(seen('/ok')).toEqual([
      expect.objectContaining({
        method: 'POST',
        body: '{"hello":"world"}',
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'content-length': '17',
          'x-test': '/ok',
        }) as unknown,
      }),
    ]);
  });

  it('sends a fan-out to one receiver over one kept-alive connection', async () => {
    const send = poster();
    const before = receiver.connections();
    for (let i = 0; i < 3; i += 1)
      expect(await send({ url: receiver.url('/kept'), body: '{}' })).toEqual({
        kind: 'delivered',
        status: 200,
      });
    expect([seen('/kept').length, receiver.connections() - before]).toEqual([3, 1]);
  });

  it('refuses loopback unless the host is allowed, before any connection is made', async () => {
    const before = receiver.connections();
    const refused = { kind: 'retry', status: null, retryAfterMs: null, reason: 'destination refused' };
    expect(await post('/refused-name', { allowHosts: parseAllowHosts('') })).toEqual(refused);
    expect(await post('/refused-literal', { allowHosts: parseAllowHosts('') }, '127.0.0.1')).toEqual(refused);
    expect(receiver.connections()).toBe(before);
    expect(await post('/allowed-literal', { allowHosts: parseAllowHosts('127.0.0.1') }, '127.0.0.1')).toEqual(
      {
        kind: 'delivered',
        status: 200,
      },
    );
  });

  it('connects to the address its own lookup checked, which a name not in DNS proves', async () => {
    const allowed = { allowHosts: parseAllowHosts('hooks.test'), resolve: toLoopback };
    expect(await post('/resolved', allowed, 'hooks.test')).toEqual({ kind: 'delivered', status: 200 });
    const mixed: Resolve = () =>
      Promise.resolve([
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
    expect(
      await post('/mixed', { allowHosts: parseAllowHosts(''), resolve: mixed }, 'hooks.test'),
    ).toMatchObject({
      kind: 'retry',
      reason: 'destination refused',
    });
    expect(seen('/mixed')).toEqual([]);
  });

  it('sends nothing to a URL that is not https', async () => {
    const outcome = await poster()({ url: `http://localhost:${receiver.port}/plain`, body: '{}' });
    expect(outcome).toEqual({ kind: 'rejected', status: null, reason: 'not an https URL' });
  });

  it('does not trust the local CA unless it is given', async () => {
    expect(await post('/untrusted', { extraCa: [] })).toEqual({
      kind: 'retry',
      status: null,
      retryAfterMs: null,
      reason: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    expect(seen('/untrusted')).toEqual([]);
  });

  it('does not follow a redirect: the attempt is retried later', async () => {
    answers.set('/moved', (res) => res.writeHead(302, { location: '/elsewhere' }).end());
    expect(await post('/moved')).toEqual({
      kind: 'retry',
      status: 302,
      retryAfterMs: null,
      reason: 'redirect not followed (HTTP 302)',
    });
    expect(seen('/elsewhere')).toEqual([]);
  });

  it('gives up on a receiver that never answers, or stops halfway through an error, after the timeout', async () => {
    answers.set('/hang', () => undefined);
    answers.set('/half', (res) => res.writeHead(200).write('partial'));
    answers.set('/half-busy', (res) => res.writeHead(503).write('partial'));
    const timeout = { kind: 'retry', status: null, retryAfterMs: null, reason: 'timeout' };
    expect(await post('/hang', { timeoutMs: 200 })).toEqual(timeout);
    expect(await post('/half-busy', { timeoutMs: 200 })).toEqual(timeout);
    // A 2xx is a delivery as soon as its status arrives, however slowly the body follows.
    expect(await post('/half', { timeoutMs: 200 })).toEqual({ kind: 'delivered', status: 200 });
  });

  it('maps answers to outcomes, honouring Retry-After and Discord retry_after', async () => {
    const now = () => Date.parse('2026-11-29T10:00:00Z');
    answers.set('/gone', (res) => res.writeHead(410).end());
    answers.set('/busy', (res) => res.writeHead(503, { 'retry-after': '120' }).end());
    answers.set('/date', (res) =>
      res.writeHead(429, { 'retry-after': 'Sun, 29 Nov 2026 10:05:00 GMT' }).end(),
    );
    answers.set('/discord', (res) =>
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' })
        .end('{"message":"You are being rate limited.","retry_after":1.5,"global":false}'),
    );
    answers.set('/bad', (res) => res.writeHead(400).end('no'));
    answers.set('/accepted', (res) => res.writeHead(202).end());
    expect(await post('/gone', { now })).toEqual({ kind: 'gone', status: 410 });
    expect(await post('/busy', { now })).toEqual({
      kind: 'retry',
      status: 503,
      retryAfterMs: 120_000,
      reason: 'HTTP 503',
    });
    expect(await post('/date', { now })).toEqual({
      kind: 'retry',
      status: 429,
      retryAfterMs: 300_000,
      reason: 'HTTP 429',
    });
    expect(await post('/discord', { now })).toEqual({
      kind: 'retry',
      status: 429,
      retryAfterMs: 1500,
      reason: 'HTTP 429',
    });
    expect(await post('/bad', { now })).toEqual({
      kind: 'retry',
      status: 400,
      retryAfterMs: null,
      reason: 'HTTP 400',
    });
    expect(await post('/accepted', { now })).toEqual({ kind: 'delivered', status: 202 });
  });
});
