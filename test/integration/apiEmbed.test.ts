// Embed status, embed snippets, the badge, the widget script and the /s/{slug} page.
import { Window } from 'happy-dom';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetScriptBytes, widgetScriptEtag } from '../../src/embed/widgetScript.ts';
import { etagOf } from '../../projections/store/bytes.ts';
import {
  BASE_URL,
  embedIncident,
  rtm,
  snippets,
  startApiTestApp,
  TOKEN,
  upd,
  type ApiTestApp,
} from '../support/apiFixture.ts';
import { seedKeys } from '../support/seedReadModels.ts';

let t: ApiTestApp;
beforeAll(async () => {
  t = await startApiTestApp();
});
afterAll(() => t.close());

const get = (path: string) => request(t.app).get(path);
const head = `"page":"acme","page_url":"${BASE_URL}/s/acme","overall":"operational","updated":"2026-11-22T09:59:30Z"`;

describe('GET /api/embed/status', () => {
  it('answers the basic status: incidents empty, no rtm or upd, fields in spec order', async () => {
    const res = await get('/api/embed/status?slug=acme');
    expect(res.status).toBe(200);
    expect(res.text).toBe(`{${head},"incidents":[],"dns_only":false}`);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=15, stale-if-error=86400');
    expect(res.headers['etag']).toBe(etagOf(res.text));
  });

  it('adds active incidents with inc=1 and the last N values with rtm=N and upd=N, oldest first', async () => {
    const res = await get('/api/embed/status?slug=acme&inc=1&rtm=4&upd=2');
    expect(res.text).toBe(
      `{${head},"incidents":${JSON.stringify([embedIncident])},"rtm":[110,110,130,130],"upd":[99,100],"dns_only":false}`,
    );
  });

  // The last minutes (apiFixture.ts): 09:57 → 110, 09:58 empty, 09:59 → 130, 10:00 (now) empty.
  it.each([
    ['rtm=1', '"rtm":[0]'], // no check in the window yet: zeros
    ['rtm=2', '"rtm":[130,130]'],
    ['rtm=3', '"rtm":[130,130,130]'], // the leading empty minute takes the window's first value
    ['rtm=4', '"rtm":[110,110,130,130]'],
    ['rtm=240', `"rtm":${JSON.stringify(rtm)}`],
    ['upd=1', '"upd":[100]'],
    ['upd=2', '"upd":[99,100]'],
    ['upd=30', `"upd":${JSON.stringify(upd)}`],
  ])('%s carries empty minutes forward inside the window', async (query, fragment) => {
    expect((await get(`/api/embed/status?slug=acme&${query}`)).text).toBe(
      `{${head},"incidents":[],${fragment},"dns_only":false}`,
    );
  });

  it.each(['', '&slug=', '&other=1'])('answers 400 missing slug (query "%s")', async (query) => {
    const res = await get(`/api/embed/status?x=1${query}`);
    expect([res.status, res.body, res.headers['cache-control']]).toEqual([
      400,
      { error: 'missing slug' },
      'no-store',
    ]);
  });

  it.each([
    'inc=0',
    'inc=true',
    'inc=',
    'inc=1&inc=1',
    'rtm=0',
    'rtm=241',
    'rtm=1.5',
    'rtm=060',
    'rtm=',
    'upd=0',
    'upd=31',
    'upd=-1',
    'upd=abc',
  ])('answers 400 invalid parameters for %s', async (query) => {
    const res = await get(`/api/embed/status?slug=acme&${query}`);
    expect([res.status, res.body]).toEqual([400, { error: 'invalid parameters' }]);
  });

  it('answers 404, 401 and 403 by page and plan, in the order of decisions.md', async () => {
    const cases: [string, number, string][] = [
      ['slug=no-such-page', 404, 'not found'],
      ['slug=gone&inc=2', 404, 'not found'],
      ['slug=blocked-page', 404, 'not found'],
      ['slug=Bad_Slug', 404, 'not found'],
      ['slug=a&slug=b', 400, 'invalid parameters'],
      ['slug=secret', 401, 'auth required'],
      ['slug=secret&auth_token=wrong', 401, 'auth required'],
      ['slug=private-free', 401, 'auth required'],
      [`slug=private-free&auth_token=${TOKEN}`, 403, 'embeds not available in your plan'],
      ['slug=freebie', 403, 'embeds not available in your plan'],
      ['slug=freebie&rtm=999', 403, 'embeds not available in your plan'],
      ['slug=propage&inc=1', 403, 'incidents and sparklines require Growth plan or higher'],
      ['slug=propage&rtm=60', 403, 'incidents and sparklines require Growth plan or higher'],
      ['slug=propage&upd=999', 403, 'incidents and sparklines require Growth plan or higher'],
      [
        `slug=secret-pro&upd=7&auth_token=${TOKEN}`,
        403,
        'incidents and sparklines require Growth plan or higher',
      ],
    ];
    for (const [query, status, error] of cases) {
      const res = await get(`/api/embed/status?${query}`);
      expect([res.status, res.body, res.headers['cache-control']], query).toEqual([
        status,
        { error },
        'no-store',
      ]);
    }
  });

  it('answers pro pages without extras, and private pages with the token privately', async () => {
    const pro = await get('/api/embed/status?slug=propage');
    expect([pro.status, pro.headers['cache-control']]).toEqual([
      200,
      'public, max-age=15, stale-if-error=86400',
    ]);
    const priv = await get(`/api/embed/status?slug=secret&auth_token=${TOKEN}&inc=1`);
    expect([priv.status, priv.headers['cache-control']]).toEqual([200, 'private, no-store']);
    expect(JSON.parse(priv.text)).toEqual({
      page: 'secret',
      page_url: `${BASE_URL}/s/secret`,
      overall: 'operational',
      updated: '2026-11-22T09:59:30Z',
      incidents: [embedIncident],
      dns_only: false,
    });
  });
});

describe('GET /api/embed/markdown', () => {
  it('answers the stored snippets', async () => {
    const res = await get('/api/embed/markdown?slug=acme');
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(snippets('acme')));
    expect(res.headers['cache-control']).toBe('public, max-age=300, stale-if-error=86400');
    expect(res.headers['etag']).toBe(etagOf(res.text));
  });

  it('answers the errors of read-api.md and decisions.md', async () => {
    const cases: [string, number, string][] = [
      ['', 400, 'missing slug'],
      ['slug=', 400, 'missing slug'],
      ['slug=no-such-page', 404, 'not found'],
      ['slug=gone', 404, 'not found'],
      ['slug=blocked-page', 404, 'not found'],
      ['slug=secret', 401, 'auth required'],
      ['slug=freebie', 403, 'Markdown API requires Growth plan or higher'],
      ['slug=propage', 403, 'Markdown API requires Growth plan or higher'],
    ];
    for (const [query, status, error] of cases) {
      const res = await get(`/api/embed/markdown?${query}`);
      expect([res.status, res.body], query).toEqual([status, { error }]);
    }
    const priv = await get(`/api/embed/markdown?slug=secret&auth_token=${TOKEN}`);
    expect([priv.status, priv.body, priv.headers['cache-control']]).toEqual([
      200,
      snippets('secret'),
      'private, no-store',
    ]);
  });
});

describe('GET /badge/:slug.svg', () => {
  const svgOf = (path: string) =>
    get(path)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          done(null, text);
        });
      });
  const parse = (svg: string) => {
    const doc = new new Window().DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(doc.documentElement.tagName.toLowerCase()).toBe('svg');
    expect(doc.querySelector('parsererror')).toBeNull();
    return {
      label: doc.querySelector('title')?.textContent,
      fills: [...doc.querySelectorAll('rect')].map((r) => r.getAttribute('fill')),
    };
  };

  it('draws the overall status, cached for 5 minutes', async () => {
    const res = await svgOf('/badge/acme.svg');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300, stale-if-error=86400');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(parse(res.body as string)).toMatchObject({
      label: 'Status: Operational',
      fills: expect.arrayContaining(['#4c1']) as unknown,
    });
    const again = await get('/badge/acme.svg').set('If-None-Match', res.headers['etag'] as string);
    expect(again.status).toBe(304);
  });

  it('follows the stored overall status', async () => {
    await t.redis.set(seedKeys(t.prefix, 'propage').overall, 'major_outage');
    const res = await svgOf('/badge/propage.svg');
    expect(parse(res.body as string)).toMatchObject({
      label: 'Status: Major Outage',
      fills: expect.arrayContaining(['#e05d44']) as unknown,
    });
  });

  it.each([
    ['no-such-page.svg', 404],
    ['gone.svg', 404],
    ['blocked-page.svg', 404],
    ['acme.png', 404],
    ['acme', 404],
    ['%E0%A4%A.svg', 404],
    ['UPPER.svg', 404],
    ['secret.svg', 401],
    ['freebie.svg', 403],
    ['empty.svg', 503],
  ])('answers a grey Unknown badge for %s with %i', async (file, status) => {
    const res = await svgOf(`/badge/${file}`);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(parse(res.body as string)).toMatchObject({
      label: 'Status: Unknown',
      fills: expect.arrayContaining(['#9f9f9f']) as unknown,
    });
  });

  it('draws a private page badge with the right token, privately', async () => {
    const res = await svgOf(`/badge/secret.svg?auth_token=${TOKEN}`);
    expect([res.status, res.headers['cache-control']]).toEqual([200, 'private, no-store']);
  });

  it.each([
    ['de', 'Status: Betriebsbereit'],
    ['ja', 'ステータス: 正常'],
    ['pt-BR', 'Status: Operacional'],
  ])('draws the badge in the language ?lang=%s asks for', async (lang, label) => {
    const res = await svgOf(`/badge/acme.svg?lang=${lang}`);
    expect([res.status, res.headers['cache-control']]).toEqual([
      200,
      'public, max-age=300, stale-if-error=86400',
    ]);
    expect(parse(res.body as string).label).toBe(label);
    expect(res.body as string).toContain(`lang="${lang}"`);
  });

  it.each(['xx', 'DE', 'pt-br', ''])('answers a grey Unknown badge with 400 for ?lang=%s', async (lang) => {
    const res = await svgOf(`/badge/acme.svg?lang=${lang}`);
    expect([res.status, res.headers['cache-control']]).toEqual([400, 'no-store']);
    expect(parse(res.body as string).label).toBe('Status: Unknown');
  });
});

describe('GET /static/embed/v1/status.js', () => {
  it('serves the widget script with its ETag', async () => {
    const res = await get('/static/embed/v1/status.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe(widgetScriptBytes.toString('utf8'));
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300, stale-if-error=86400');
    expect(res.headers['etag']).toBe(widgetScriptEtag);
    const again = await get('/static/embed/v1/status.js').set('If-None-Match', widgetScriptEtag);
    expect([again.status, again.text, again.headers['access-control-allow-origin']]).toEqual([304, '', '*']);
  });
});

describe('GET /s/:slug', () => {
  it('serves the status page document of a public page', async () => {
    const res = await get('/s/acme');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-if-error=86400');
    expect(res.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect(res.text).toContain('<title>acme status</title>');
    expect(res.text).toContain('data-slug="acme" data-private="false"');
    expect(res.text).toMatch(/<script src="\/static\/page\/v1\/page\.en\.js\?v=[\w-]+" defer><\/script>/);
    expect(res.text).toMatch(/<link rel="stylesheet" href="\/static\/page\/v1\/page\.css\?v=[\w-]+">/);
    expect(res.text).toContain(
      '<link rel="alternate" type="application/atom+xml" title="acme incidents (Atom)" href="/s/acme/feed.atom">',
    );
    expect(res.text).toContain(
      '<link rel="alternate" type="application/rss+xml" title="acme incidents (RSS)" href="/s/acme/feed.rss">',
    );
  });

  it('serves a private page without its title, privately, and lets the script ask for the token', async () => {
    for (const path of ['/s/secret', `/s/secret?auth_token=${TOKEN}`, '/s/secret?auth_token=wrong']) {
      const res = await get(path);
      expect([res.status, res.headers['cache-control']], path).toEqual([200, 'private, no-store']);
      expect(res.text).toContain('<title>Private status page</title>');
      expect(res.text).toContain('data-slug="secret" data-private="true"');
    }
  });

  it("speaks the language ?lang= names, with that language's script, under the same surrogate key", async () => {
    const plain = await get('/s/acme');
    for (const [lang, title] of [
      ['de', 'Status von acme'],
      ['fr', 'État de acme'],
      ['es', 'Estado de acme'],
      ['pt-BR', 'Status de acme'],
      ['ja', 'acme のステータス'],
      ['en', 'acme status'],
    ] as const) {
      const res = await get(`/s/acme?lang=${lang}`);
      expect([res.status, res.headers['cache-control']], lang).toEqual([
        200,
        'public, max-age=60, stale-if-error=86400',
      ]);
      expect(res.text).toContain(`<html lang="${lang}">`);
      expect(res.text).toContain(`<title>${title}</title>`);
      expect(res.text).toMatch(
        new RegExp(`<script src="/static/page/v1/page\\.${lang}\\.js\\?v=[\\w-]+" defer>`),
      );
      expect(res.headers['surrogate-key'], lang).toBe(plain.headers['surrogate-key']);
      expect(res.headers['vary'] ?? '', lang).not.toMatch(/accept-language/i);
      const script = await get(`/static/page/v1/page.${lang}.js`);
      expect([script.status, script.headers['content-type']]).toEqual([
        200,
        'text/javascript; charset=utf-8',
      ]);
    }
    // The unsuffixed script is the English one.
    expect((await get('/static/page/v1/page.js')).headers['etag']).toBe(
      (await get('/static/page/v1/page.en.js')).headers['etag'],
    );
  });

  it('answers the same document whatever Accept-Language says', async () => {
    const plain = await get('/s/acme');
    for (const language of ['de-DE,de;q=0.9', 'ja', 'fr-CA, fr;q=0.8, en;q=0.5']) {
      const res = await get('/s/acme').set('Accept-Language', language);
      expect([res.headers['etag'], res.text], language).toEqual([plain.headers['etag'], plain.text]);
    }
  });

  it.each(['it', 'DE', 'pt-br', '', 'de&lang=fr'])(
    'answers a 400 HTML page listing the languages for ?lang=%s',
    async (lang) => {
      const res = await get(`/s/acme?lang=${lang}`);
      expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
        400,
        'text/html; charset=utf-8',
        'no-store',
      ]);
      expect(res.text).toContain('<h1>Language not available</h1>');
      for (const other of ['en', 'de', 'fr', 'es', 'pt-BR', 'ja'])
        expect(res.text).toContain(`<a href="?lang=${other}" hreflang="${other}"`);
    },
  );

  it('finds the page before it looks at the language: an unknown page is 404 in the language asked for', async () => {
    const res = await get('/s/no-such-page?lang=es');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<html lang="es">');
    expect(res.text).toContain('<h1>Página de estado no encontrada</h1>');
  });

  it('answers an HTML "not found" page for unknown, deleted, blocked and undecodable pages', async () => {
    for (const path of ['/s/no-such-page', '/s/gone', '/s/blocked-page', '/s/%E0%A4%A', '/s/Not_A_Slug']) {
      const res = await get(path);
      expect([res.status, res.headers['content-type'], res.headers['cache-control']], path).toEqual([
        404,
        'text/html; charset=utf-8',
        'no-store',
      ]);
      expect(res.text).toContain('<h1>Status page not found</h1>');
    }
  });

  it('serves the one script and one stylesheet with strong ETags, under 60 KB with the document', async () => {
    const doc = await get('/s/acme');
    let total = Buffer.byteLength(doc.text);
    for (const [path, type] of [
      ['/static/page/v1/page.en.js', 'text/javascript; charset=utf-8'],
      ['/static/page/v1/page.css', 'text/css; charset=utf-8'],
    ] as const) {
      const version = new RegExp(`${path.replace(/\./g, '\\.')}\\?v=([\\w-]+)`).exec(doc.text)?.[1];
      const res = await get(path)
        .buffer(true)
        .parse((stream, done) => {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect([res.status, res.headers['content-type'], res.headers['cache-control']], path).toEqual([
        200,
        type,
        'public, max-age=300, stale-if-error=86400',
      ]);
      expect(res.headers['etag']).toBe(`"${String(version)}"`);
      total += (res.body as Buffer).length;
      const versioned = await get(`${path}?v=${String(version)}`);
      expect(versioned.headers['cache-control']).toBe(
        'public, max-age=31536000, immutable, stale-if-error=86400',
      );
      const again = await get(path).set('If-None-Match', res.headers['etag'] as string);
      expect([again.status, again.text]).toEqual([304, '']);
    }
    expect(total).toBeLessThan(60 * 1024);
  });
});
