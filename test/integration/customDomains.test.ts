// A page at its own domain: requests naming a custom domain in Host are served as that page, with
// the page-scoped paths at the root, and answer exactly as the same request by slug.
//
//   acme    growth, public, status.acme.test, monitor 11 up
//   vault   business, private, status.vault.test
//   shut    growth, blocked, status.shut.test
//   gone    growth, deleted, had status.gone.test
//   umlaut  growth, status.bücher.test (requests name it status.xn--bcher-kva.test)
import type { Express } from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { createDomainDirectory, type DomainDirectory } from '../../src/readModels/domains/domainDirectory.ts';
import { domainClaimsRead } from '../../src/readModels/domains/reads.ts';
import { runRead } from '../../src/store/reads.ts';
import { runPartition } from '../../src/projector/runPartition.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { elevenApiPaths } from '../support/apiPaths.ts';

const N = '2026-11-22T12:00:30Z';
const TOKEN = 'vault-token-0123456789abcdef';

/** The eleven endpoints of read-api.md for page acme, monitor 11. */
const API_PATHS = elevenApiPaths('acme', 11);
const ROOT_PATHS = ['/feed.atom', '/feed.rss', '/api/v2/summary.json', '/api/v2/incidents/unresolved.json'];

type Answer = Readonly<{ status: number; type: unknown; cache: unknown; etag: unknown; body: string }>;

describe('custom domains', () => {
  let env: ProjectorEnv;
  let app: Express;
  let domains: DomainDirectory;
  const log = pino({ level: 'silent' });

  const answerOf = async (test: request.Test): Promise<Answer> => {
    const res = await test.buffer(true).parse((raw, done) => {
      let text = '';
      raw.setEncoding('utf8');
      raw.on('data', (chunk: string) => (text += chunk));
      raw.on('end', () => {
        done(null, text);
      });
    });
    return {
      status: res.status,
      type: res.headers['content-type'],
      cache: res.headers['cache-control'],
      etag: res.headers.etag,
      body: res.body as string,
    };
  };
  const atHost = (host: string, path: string, on: Express = app) =>
    answerOf(request(on).get(path).set('Host', host));
  const bySlug = (path: string) => answerOf(request(app).get(path).set('Host', 'api.status.test'));

  beforeAll(async () => {
    env = await startProjectorEnv({ now: N });
    await env.append(
      pageConfigured('acme', { title: 'Acme', custom_domain: 'status.acme.test' }),
      monitorConfigured('acme', 11, { name: 'API' }),
      check('acme', 11, '2026-11-22T12:00:00Z', 'up', 120),
      pageConfigured('vault', { plan: 'business', auth_token: TOKEN, custom_domain: 'status.vault.test' }),
      pageConfigured('shut', { blocked: true, custom_domain: 'status.shut.test' }),
      pageConfigured('gone', { custom_domain: 'status.gone.test' }),
      { type: 'page.deleted', page: 'gone', at: '2026-11-02T00:00:00Z', data: {} },
      pageConfigured('umlaut', { custom_domain: 'status.bücher.test' }),
    );
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    const readActive = createActiveVersionReader(env.redis, env.prefix);
    domains = createDomainDirectory({ redis: env.redis, prefix: env.prefix, log, readActive });
    app = buildApp({ redis: env.redis, prefix: env.prefix, clock: env.now, config, log, domains });
  });
  afterAll(async () => {
    await domains.close();
    await env.close();
  });

  it('serves the status page at the root of the domain, as /s/{slug}', async () => {
    const page = await bySlug('/s/acme');
    expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(await atHost('status.acme.test', '/')).toEqual(page);
  });

  it('serves the feeds and the Statuspage documents at the root of the domain', async () => {
    const types = ['application/atom+xml', 'application/rss+xml', 'application/json', 'application/json'];
    for (const [i, path] of ROOT_PATHS.entries()) {
      const plain = await bySlug(`/s/acme${path}`);
      expect([plain.status, String(plain.type).split(';')[0]], path).toEqual([200, types[i]]);
      expect(await atHost('status.acme.test', path), path).toEqual(plain);
    }
  });

  it('finds the domain whatever the case, port or trailing dot of the Host', async () => {
    const page = await bySlug('/s/acme');
    for (const host of [
      'STATUS.Acme.TEST',
      'status.acme.test:8443',
      'status.acme.test.',
      'Status.Acme.Test.:443',
    ])
      expect(await atHost(host, '/'), host).toEqual(page);
  });

  it('finds an internationalised domain by its punycode form', async () => {
    const page = await bySlug('/s/umlaut');
    expect(page.status).toBe(200);
    expect(await atHost('status.xn--bcher-kva.test', '/')).toEqual(page);
    expect(await atHost('STATUS.XN--BCHER-KVA.TEST:443', '/')).toEqual(page);
  });

  it('keeps the eleven API paths working on the domain, unchanged', async () => {
    for (const path of API_PATHS) {
      const plain = await bySlug(path);
      expect(plain.status, path).toBe(200);
      expect(await atHost('status.acme.test', path), path).toEqual(plain);
    }
  });

  it('lets an unknown host fall through to the normal routes', async () => {
    for (const path of ['/', ...ROOT_PATHS]) {
      const unknown = await atHost('unknown.test', path);
      expect(unknown, path).toEqual(await bySlug(path));
      expect([unknown.status, unknown.body], path).toEqual([404, '{"error":"not found"}']);
    }
    expect(await atHost('status.acme.test.example', '/')).toMatchObject({ status: 404 });
  });

  it('asks a private page for its token exactly as /s/{slug} does', async () => {
    // The document is a shell that asks the reader for the token; the data behind it needs it.
    for (const query of ['', `?auth_token=${TOKEN}`]) {
      const shell = await atHost('status.vault.test', `/${query}`);
      expect(shell, query).toEqual(await bySlug(`/s/vault${query}`));
      expect([shell.status, shell.cache], query).toEqual([200, 'private, no-store']);
      expect(shell.body, query).toContain('data-private="true"');
    }
    const charts = '/api/status/vault/charts';
    const refused = await atHost('status.vault.test', charts);
    expect([refused.status, refused.body]).toEqual([401, '{"error":"auth required"}']);
    expect(await atHost('status.vault.test', `${charts}?auth_token=${TOKEN}`)).toMatchObject({ status: 200 });
    for (const path of ROOT_PATHS)
      expect(await atHost('status.vault.test', path), path).toEqual(await bySlug(`/s/vault${path}`));
  });

  it('answers for a blocked or deleted page as its /s/{slug} does', async () => {
    for (const [host, slug] of [
      ['status.shut.test', 'shut'],
      ['status.gone.test', 'gone'],
    ] as const) {
      const answer = await atHost(host, '/');
      expect(answer, host).toEqual(await bySlug(`/s/${slug}`));
      expect([answer.status, answer.type], host).toEqual([404, 'text/html; charset=utf-8']);
      for (const path of ROOT_PATHS)
        expect(await atHost(host, path), `${host}${path}`).toEqual(await bySlug(`/s/${slug}${path}`));
    }
  });

  describe('X-Forwarded-Host', () => {
    const forwarded = (on: Express) =>
      answerOf(
        request(on).get('/').set('Host', 'proxy.internal').set('X-Forwarded-Host', 'status.acme.test'),
      );
    const appTrusting = (trust: string) =>
      buildApp({
        redis: env.redis,
        prefix: env.prefix,
        clock: env.now,
        config: loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, TRUST_PROXY: trust }),
        log,
        domains,
      });

    it('is ignored unless TRUST_PROXY trusts the peer', async () => {
      expect(await forwarded(app)).toMatchObject({ status: 404 });
      expect(await forwarded(appTrusting('10.0.0.0/8'))).toMatchObject({ status: 404 });
    });

    it('names the host when the peer is a trusted proxy', async () => {
      const page = await bySlug('/s/acme');
      expect(await forwarded(appTrusting('loopback'))).toEqual(page);
      expect(await forwarded(appTrusting('on'))).toEqual(page);
    });
  });

  describe('changes', () => {
    // The app has loaded its directory already: each change must reach it by announcement.
    const servedBy = async (host: string) => {
      const answer = await atHost(host, '/');
      return answer.status === 200 ? answer.body : answer.status;
    };
    const waitUntilServedBy = async (host: string, expected: unknown) => {
      await vi.waitFor(async () => expect(await servedBy(host)).toEqual(expected), {
        timeout: 1000,
        interval: 20,
      });
    };

    it('takes a new, changed or removed domain into account within a second of its projection', async () => {
      expect(await servedBy('status.acme.test')).toEqual((await bySlug('/s/acme')).body);
      await env.append(pageConfigured('acme', { title: 'Acme', custom_domain: 'status.acme-new.test' }, N));
      await env.project();
      await waitUntilServedBy('status.acme-new.test', (await bySlug('/s/acme')).body);
      expect(await servedBy('status.acme.test')).toBe(404);

      await env.append(pageConfigured('acme', { title: 'Acme', custom_domain: null }, N));
      await env.project();
      await waitUntilServedBy('status.acme-new.test', 404);
    });

    it('moves a domain from one page to another', async () => {
      await env.append(pageConfigured('first', { custom_domain: 'status.moving.test' }, N));
      await env.project();
      await waitUntilServedBy('status.moving.test', (await bySlug('/s/first')).body);
      await env.append(
        pageConfigured('first', { custom_domain: null }, N),
        pageConfigured('second', { custom_domain: 'STATUS.Moving.test' }, N),
      );
      await env.project();
      await waitUntilServedBy('status.moving.test', (await bySlug('/s/second')).body);
    });

    it('gives a domain claimed on two partitions at once (one lagging) to the later claim', async () => {
      const left = 'left';
      const right = ['right-1', 'right-2', 'right-3', 'right-4'].find(
        (slug) => partitionOf(slug, env.partitions) !== partitionOf(left, env.partitions),
      )!;
      await env.append(pageConfigured(left, { custom_domain: 'status.split.test' }, N));
      await env.project();
      await waitUntilServedBy('status.split.test', (await bySlug(`/s/${left}`)).body);

      await env.append(
        pageConfigured(left, { custom_domain: null }, N),
        pageConfigured(right, { custom_domain: 'status.split.test' }, N),
      );
      // Only the right page's partition projects: the left page's old claim is still stored.
      const active = (await readActive(env.redis, env.prefix))!;
      const ref = {
        prefix: env.prefix,
        version: active.version,
        partition: partitionOf(right, env.partitions),
        partitions: env.partitions,
      };
      await vi.waitFor(
        async () => {
          await runPartition(env.deps, ref, { mode: 'continuous' });
          expect((await bySlug(`/s/${right}`)).status).toBe(200);
        },
        { timeout: 10_000, interval: 50 },
      );
      const leftClaims = await runRead(
        env.redis,
        domainClaimsRead(await env.tagOf(partitionOf(left, env.partitions))),
      );
      expect(leftClaims.get(left)?.domain).toBe('status.split.test'); // two claims stored at once
      await waitUntilServedBy('status.split.test', (await bySlug(`/s/${right}`)).body);
      await env.project();
      await waitUntilServedBy('status.split.test', (await bySlug(`/s/${right}`)).body);
    });

    it('frees a deleted page’s domain for another page', async () => {
      await env.append(pageConfigured('heir', { custom_domain: 'status.gone.test' }, N));
      await env.project();
      await waitUntilServedBy('status.gone.test', (await bySlug('/s/heir')).body);
    });
  });
});
