// The Atom and RSS feeds end to end: events through the write path, the real projector, the API.
// Read back by a real feed parser (rss-parser) and validated by libxml2 against RELAX NG schemas of
// Atom (RFC 4287) and RSS 2.0; HTTP caching (ETag, Last-Modified, 304s) and the access rules.
import { XMLParser } from 'fast-xml-parser';
import Parser from 'rss-parser';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { pageConfigured } from '../support/events.ts';
import { projectAll } from '../support/projectAll.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { appOf } from '../support/testServers.ts';
import { xmlErrors } from '../support/xmlCheck.ts';
import { HOSTILE_TITLE_IN_XML, N, PAGE_TITLE, subscriptionEvents } from '../support/subscriptionFixture.ts';

const PAGE_URL = 'http://status.test/s/acme';
const LAST_MODIFIED = 'Sun, 22 Nov 2026 11:55:00 GMT'; // inc-1's latest update, the newest entry

// Newest update first: inc-1 11-22 11:55, m-now 11-22 11:30 (started by the clock), m-next 11-21
// 09:00, inc-0 11-20 06:40, m-cancel 11-19 12:00 (cancelled), m-done 11-18 03:30.
const entries = [
  {
    id: 'tag:status.test,2026-11-22:acme/incident/inc-1',
    title: HOSTILE_TITLE_IN_XML,
    link: `${PAGE_URL}#incident-inc-1`,
    published: '2026-11-22T11:50:00.000Z',
    updated: '2026-11-22T11:55:00Z',
    content:
      '<p>Affected: API</p>' +
      '<p><b>Identified</b> (2026-11-22T11:55:00Z)<br>Found it.</p>' +
      '<p><b>Investigating</b> (2026-11-22T11:50:00Z)<br>Errors on &lt;b&gt;API&lt;/b&gt; &amp; &quot;retries&quot;</p>',
  },
  {
    id: 'tag:status.test,2026-11-20:acme/maintenance/m-now',
    title: 'Maintenance: Network maintenance',
    link: `${PAGE_URL}#maintenance-m-now`,
    published: '2026-11-20T00:00:00.000Z',
    updated: '2026-11-22T11:30:00Z',
    content:
      '<p><b>In progress</b>: 2026-11-22T11:30:00Z to 2026-11-22T12:15:00Z</p>' +
      '<p>Affected: Website</p><p>Switching the core routers.</p>',
  },
  {
    id: 'tag:status.test,2026-11-21:acme/maintenance/m-next',
    title: 'Maintenance: Storage migration',
    link: `${PAGE_URL}#maintenance-m-next`,
    published: '2026-11-21T09:00:00.000Z',
    updated: '2026-11-21T09:00:00Z',
    content: '<p><b>Scheduled</b>: 2026-11-30T22:00:00Z to 2026-12-01T02:00:00Z</p><p>Moving volumes.</p>',
  },
  {
    id: 'tag:status.test,2026-11-20:acme/incident/inc-0',
    title: 'Database latency',
    link: `${PAGE_URL}#incident-inc-0`,
    published: '2026-11-20T06:00:00.000Z',
    updated: '2026-11-20T06:40:00Z',
    content:
      '<p>Affected: Database</p>' +
      '<p><b>Resolved</b> (2026-11-20T06:40:00Z)<br>Resolved.</p>' +
      '<p><b>Monitoring</b> (2026-11-20T06:20:00Z)<br>Back to normal.</p>' +
      '<p><b>Investigating</b> (2026-11-20T06:00:00Z)<br>Queries are slow.</p>',
  },
  {
    id: 'tag:status.test,2026-11-19:acme/maintenance/m-cancel',
    title: 'Maintenance: CDN switch',
    link: `${PAGE_URL}#maintenance-m-cancel`,
    published: '2026-11-19T00:00:00.000Z',
    updated: '2026-11-19T12:00:00Z',
    content: '<p><b>Cancelled</b>: 2026-11-25T01:00:00Z to 2026-11-25T03:00:00Z</p>',
  },
  {
    id: 'tag:status.test,2026-11-15:acme/maintenance/m-done',
    title: 'Maintenance: Database upgrade',
    link: `${PAGE_URL}#maintenance-m-done`,
    published: '2026-11-15T00:00:00.000Z',
    updated: '2026-11-18T03:30:00Z',
    content:
      '<p><b>Completed</b>: 2026-11-18T02:00:00Z to 2026-11-18T04:00:00Z</p><p>Upgrading the primary database.</p>',
  },
];

describe('feeds', () => {
  let env: ProjectorEnv;
  let app: ReturnType<typeof buildApp>;
  const get = (path: string) =>
    request(app)
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          done(null, body);
        });
      });

  beforeAll(async () => {
    env = await startProjectorEnv({ now: N });
    const { accepted } = await env.append(
      ...subscriptionEvents(),
      ...subscriptionEvents('locked', { auth_token: 'a-private-token-1234' }, 100),
      pageConfigured('gone', { blocked: true }),
    );
    await projectAll(env, accepted);
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    app = appOf(env, config);
  });
  afterAll(() => env.close());

  it('serves Atom that a feed parser reads back exactly', async () => {
    const res = await get('/s/acme/feed.atom');
    expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
      200,
      'application/atom+xml; charset=utf-8',
      'public, max-age=60, stale-if-error=86400',
    ]);
    expect(res.headers['last-modified']).toBe(LAST_MODIFIED);
    expect(res.headers['etag']).toMatch(/^"[\w-]+"$/);
    const body = res.body as string;
    expect(await xmlErrors(body, 'atom')).toEqual([]);
    const tree: unknown = new XMLParser({ isArray: (name) => name === 'entry' }).parse(body);

    const feed = await new Parser().parseString(body);
    expect([feed.title, feed.link, feed.feedUrl]).toEqual([
      PAGE_TITLE,
      PAGE_URL,
      'http://status.test/s/acme/feed.atom',
    ]);
    expect(
      feed.items.map((i) => ({
        id: i.id,
        title: i.title,
        link: i.link,
        published: i.isoDate,
        content: i.content,
      })),
    ).toEqual(entries.map(({ updated: _, ...entry }) => entry));
    const atom = tree as { feed: { updated: string; entry: { updated: string }[] } };
    expect([atom.feed.updated, ...atom.feed.entry.map((e) => e.updated)]).toEqual([
      entries[0]!.updated,
      ...entries.map((e) => e.updated),
    ]);
  });

  it('serves RSS that a feed parser reads back exactly', async () => {
    const res = await get('/s/acme/feed.rss');
    expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
      200,
      'application/rss+xml; charset=utf-8',
      'public, max-age=60, stale-if-error=86400',
    ]);
    expect(res.headers['last-modified']).toBe(LAST_MODIFIED);
    expect(await xmlErrors(res.body as string, 'rss')).toEqual([]);
    const feed = await new Parser().parseString(res.body as string);
    expect([feed.title, feed.link, feed.lastBuildDate]).toEqual([PAGE_TITLE, PAGE_URL, LAST_MODIFIED]);
    expect(
      feed.items.map((i) => ({
        id: i.guid,
        title: i.title,
        link: i.link,
        published: i.isoDate,
        content: i.content,
      })),
    ).toEqual(entries.map(({ updated: _, ...entry }) => entry));
  });

  it('answers 304 to If-None-Match and to If-Modified-Since not before Last-Modified', async () => {
    for (const format of ['atom', 'rss']) {
      const path = `/s/acme/feed.${format}`;
      const etag = String((await get(path)).headers['etag']);
      const conditional = async (name: string, value: string) => {
        const res = await get(path).set(name, value);
        return [res.status, res.headers['etag'], res.headers['last-modified'], res.body];
      };
      expect(await conditional('If-None-Match', etag)).toEqual([304, etag, LAST_MODIFIED, '']);
      expect(await conditional('If-Modified-Since', LAST_MODIFIED)).toEqual([304, etag, LAST_MODIFIED, '']);
      expect(await conditional('If-Modified-Since', 'Mon, 23 Nov 2026 00:00:00 GMT')).toEqual([
        304,
        etag,
        LAST_MODIFIED,
        '',
      ]);
      const older = await get(path).set('If-Modified-Since', 'Sun, 22 Nov 2026 11:54:59 GMT');
      expect(older.status).toBe(200);
      // If-None-Match wins over If-Modified-Since (RFC 9110 §13.1.3).
      const both = await get(path).set('If-None-Match', '"other"').set('If-Modified-Since', LAST_MODIFIED);
      expect(both.status).toBe(200);
      expect((await get(path).set('If-Modified-Since', 'not a date')).status).toBe(200);
    }
  });

  it('hides a private page without its token, and a blocked or unknown one', async () => {
    for (const path of [
      '/s/locked/feed.atom',
      '/s/locked/feed.rss?auth_token=not-the-token-at-all',
      '/s/gone/feed.atom',
      '/s/nobody/feed.rss',
    ]) {
      const res = await request(app).get(path);
      expect([path, res.status, res.body, res.headers['cache-control']]).toEqual([
        path,
        404,
        { error: 'not found' },
        'no-store',
      ]);
    }
    const open = await get('/s/locked/feed.rss?auth_token=a-private-token-1234');
    expect([open.status, open.headers['cache-control']]).toEqual([200, 'private, no-store']);
    const feed = await new Parser().parseString(open.body as string);
    expect(feed.items.map((i) => i.title)).toEqual(entries.map((e) => e.title));
  });

  // Last: it changes the page.
  it('follows a new update at once and a maintenance window by the clock', async () => {
    const before = await get('/s/acme/feed.atom');
    const { accepted } = await env.append({
      type: 'incident.updated',
      page: 'acme',
      at: '2026-11-22T12:00:20Z',
      data: { incident_id: 'inc-1', state: 'resolved', message: 'Fixed.' },
    });
    await projectAll(env, accepted);
    const after = await get('/s/acme/feed.atom');
    expect(after.headers['last-modified']).toBe('Sun, 22 Nov 2026 12:00:20 GMT');
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    expect((await get('/s/acme/feed.atom').set('If-None-Match', String(before.headers['etag']))).status).toBe(
      200,
    );
    const resolved = await new Parser().parseString(after.body as string);
    expect(resolved.items[0]!.content).toBe(
      `<p>Affected: API</p><p><b>Resolved</b> (2026-11-22T12:00:20Z)<br>Fixed.</p>${entries[0]!.content.slice('<p>Affected: API</p>'.length)}`,
    );

    env.setNow('2026-11-22T12:15:30Z'); // m-now's window ended at 12:15
    await env.project();
    const tree = new XMLParser({ isArray: (name) => name === 'entry' }).parse(
      (await get('/s/acme/feed.atom')).body as string,
    ) as { feed: { entry: { id: string; updated: string; content: string }[] } };
    expect(tree.feed.entry.slice(0, 2).map((e) => [e.id, e.updated, e.content.slice(0, 40)])).toEqual([
      [
        'tag:status.test,2026-11-20:acme/maintenance/m-now',
        '2026-11-22T12:15:00Z',
        '<p><b>Completed</b>: 2026-11-22T11:30:00',
      ],
      [
        'tag:status.test,2026-11-22:acme/incident/inc-1',
        '2026-11-22T12:00:20Z',
        '<p>Affected: API</p><p><b>Resolved</b> (',
      ],
    ]);
  });
});
