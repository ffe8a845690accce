// The feed renderers on a tiny page: exact Atom and RSS documents, every text escaped, characters
// XML cannot carry dropped, entries most recently updated first, at most 50.
import { describe, expect, it } from 'vitest';
import { renderAtom } from '../../projections/feeds/feedAtom.ts';
import { feedEntries, type FeedInput } from '../../projections/feeds/feedEntries.ts';
import { renderRss } from '../../projections/feeds/feedRss.ts';
import { xmlText } from '../../projections/feeds/xml.ts';
import type { IncidentDoc, MaintenanceDoc } from '../../projections/types.ts';
import { xmlErrors } from '../support/xmlCheck.ts';

const at = (iso: string) => Date.parse(iso);

const incident: IncidentDoc = {
  id: 'i&1',
  title: 'A <b>"bad"</b> day ]]> \u0000',
  state: 'identified',
  startedAt: at('2026-11-22T10:00:00Z'),
  resolvedAt: null,
  components: ['API & co'],
  updates: [
    { status: 'investigating', message: "It's <slow>", createdAt: at('2026-11-22T10:00:00Z') },
    { status: 'identified', message: 'Found.', createdAt: at('2026-11-22T10:30:00Z') },
  ],
};
const maintenance: MaintenanceDoc = {
  id: 'm1',
  title: 'Upgrade',
  description: '',
  scheduledStart: at('2026-11-23T01:00:00Z'),
  scheduledEnd: at('2026-11-23T02:00:00Z'),
  components: [],
  createdAt: at('2026-11-21T09:00:00Z'),
  updatedAt: at('2026-11-21T09:00:00Z'),
  started: false,
  completed: false,
  cancelled: false,
};
const input: FeedInput = {
  slug: 'acme',
  title: 'Acme & <Co>',
  pageUrl: 'https://status.acme.test',
  baseUrl: 'http://status.test/',
  incidents: [incident],
  maintenances: [maintenance],
  emptyUpdatedAt: at('2026-11-01T00:00:00Z'),
  nowMs: at('2026-11-22T12:00:00Z'),
};

const incidentHtml =
  '&lt;p&gt;Affected: API &amp;amp; co&lt;/p&gt;' +
  '&lt;p&gt;&lt;b&gt;Identified&lt;/b&gt; (2026-11-22T10:30:00Z)&lt;br&gt;Found.&lt;/p&gt;' +
  '&lt;p&gt;&lt;b&gt;Investigating&lt;/b&gt; (2026-11-22T10:00:00Z)&lt;br&gt;It&amp;#39;s &amp;lt;slow&amp;gt;&lt;/p&gt;';
const maintenanceHtml =
  '&lt;p&gt;&lt;b&gt;Scheduled&lt;/b&gt;: 2026-11-23T01:00:00Z to 2026-11-23T02:00:00Z&lt;/p&gt;';

describe('feeds', () => {
  it('renders the Atom document exactly, valid against the RELAX NG schema of RFC 4287', async () => {
    const { body, updated } = renderAtom(input);
    expect(updated).toBe(at('2026-11-22T10:30:00Z'));
    expect(body).toBe(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>http://status.test/s/acme/feed.atom</id>
  <title type="text">Acme &amp; &lt;Co&gt;</title>
  <subtitle type="text">Incidents and maintenances of Acme &amp; &lt;Co&gt;</subtitle>
  <link rel="alternate" type="text/html" href="https://status.acme.test"/>
  <link rel="self" type="application/atom+xml" href="http://status.test/s/acme/feed.atom"/>
  <updated>2026-11-22T10:30:00Z</updated>
  <author><name>Acme &amp; &lt;Co&gt;</name></author>
  <entry>
    <id>tag:status.test,2026-11-22:acme/incident/i%261</id>
    <title type="text">A &lt;b&gt;&quot;bad&quot;&lt;/b&gt; day ]]&gt; </title>
    <link rel="alternate" type="text/html" href="https://status.acme.test#incident-i%261"/>
    <category term="incident"/>
    <published>2026-11-22T10:00:00Z</published>
    <updated>2026-11-22T10:30:00Z</updated>
    <content type="html">${incidentHtml}</content>
  </entry>
  <entry>
    <id>tag:status.test,2026-11-21:acme/maintenance/m1</id>
    <title type="text">Maintenance: Upgrade</title>
    <link rel="alternate" type="text/html" href="https://status.acme.test#maintenance-m1"/>
    <category term="maintenance"/>
    <published>2026-11-21T09:00:00Z</published>
    <updated>2026-11-21T09:00:00Z</updated>
    <content type="html">${maintenanceHtml}</content>
  </entry>
</feed>
`);
    expect(await xmlErrors(body, 'atom')).toEqual([]);
  });

  it('renders the RSS document exactly, valid against an RSS 2.0 schema', async () => {
    const { body } = renderRss(input);
    expect(body).toBe(`<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Acme &amp; &lt;Co&gt;</title>
    <link>https://status.acme.test</link>
    <description>Incidents and maintenances of Acme &amp; &lt;Co&gt;</description>
    <atom:link href="http://status.test/s/acme/feed.rss" rel="self" type="application/rss+xml"/>
    <lastBuildDate>Sun, 22 Nov 2026 10:30:00 GMT</lastBuildDate>
    <ttl>1</ttl>
    <item>
      <title>A &lt;b&gt;&quot;bad&quot;&lt;/b&gt; day ]]&gt; </title>
      <link>https://status.acme.test#incident-i%261</link>
      <guid isPermaLink="false">tag:status.test,2026-11-22:acme/incident/i%261</guid>
      <category>incident</category>
      <pubDate>Sun, 22 Nov 2026 10:00:00 GMT</pubDate>
      <description>${incidentHtml}</description>
    </item>
    <item>
      <title>Maintenance: Upgrade</title>
      <link>https://status.acme.test#maintenance-m1</link>
      <guid isPermaLink="false">tag:status.test,2026-11-21:acme/maintenance/m1</guid>
      <category>maintenance</category>
      <pubDate>Sat, 21 Nov 2026 09:00:00 GMT</pubDate>
      <description>${maintenanceHtml}</description>
    </item>
  </channel>
</rss>
`);
    expect(await xmlErrors(body, 'rss')).toEqual([]);
  });

  it('the schemas reject a feed without its required elements', async () => {
    const { body } = renderAtom(input);
    expect(
      await xmlErrors(body.replace(/<updated>[^<]*<\/updated>\n {2}<author>/, '<author>'), 'atom'),
    ).toContain('element feed: Relax-NG validity error : Expecting an element updated, got nothing');
    const rss = renderRss(input).body.replace('<link>https://status.acme.test</link>', '');
    expect(await xmlErrors(rss, 'rss')).toContain(
      'element channel: Relax-NG validity error : Expecting an element link, got nothing',
    );
    expect((await xmlErrors('<feed>&nbsp;</feed>')).length).toBeGreaterThan(0);
  });

  it('drops what XML cannot carry and escapes the rest', () => {
    expect(xmlText('a\u0000b\u0001c\u0008d\u000be\u000cf\uFFFEg\uD800h')).toBe('abcdefgh');
    expect(xmlText('tab\tnl\ncr\r 😀 \u00e9')).toBe('tab\tnl\ncr\r 😀 \u00e9');
    expect(xmlText(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });

  it('keeps the 50 most recently updated entries, and dates an empty feed by the page', () => {
    const many = Array.from({ length: 60 }, (_, i) => ({
      ...incident,
      id: `i${String(i).padStart(2, '0')}`,
      updates: [
        {
          status: 'investigating' as const,
          message: 'x',
          createdAt: at('2026-11-01T00:00:00Z') + i * 60_000,
        },
      ],
    }));
    const entries = feedEntries({ ...input, incidents: many, maintenances: [] });
    expect(entries.map((e) => e.id.split('/').pop())).toEqual(
      Array.from({ length: 50 }, (_, i) => `i${String(59 - i).padStart(2, '0')}`),
    );
    const empty = renderAtom({ ...input, incidents: [], maintenances: [] });
    expect(empty.updated).toBe(at('2026-11-01T00:00:00Z'));
    expect(empty.body).toContain('<updated>2026-11-01T00:00:00Z</updated>\n  <author>');
    expect(empty.body).not.toContain('<entry>');
  });
});
