// The page's RSS 2.0 feed, served at /s/{slug}/feed.rss. Dates are RFC 822 in GMT; the atom:link
// self reference is what feed validators recommend.
import type { FeedEntry, FeedInput } from './feedEntries.ts';
import { feedEntries, feedUpdated, feedUrl, oncePerEntry } from './feedEntries.ts';
import { xmlText as x } from './xml.ts';

const rfc822 = (ms: number): string => new Date(ms).toUTCString();

const itemXml = (e: FeedEntry): string => `    <item>
      <title>${x(e.title)}</title>
      <link>${x(e.url)}</link>
      <guid isPermaLink="false">${x(e.id)}</guid>
      <category>${e.kind}</category>
      <pubDate>${rfc822(e.published)}</pubDate>
      <description>${x(e.content)}</description>
    </item>
`;

/** Entries of unchanged incidents are shared between renders (feedEntries.ts): XML once each. */
const item = oncePerEntry(itemXml);

export const renderRss = (
  input: FeedInput,
  entries: readonly FeedEntry[] = feedEntries(input),
): { body: string; updated: number } => {
  const updated = feedUpdated(input, entries);
  const body = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${x(input.title)}</title>
    <link>${x(input.pageUrl)}</link>
    <description>${x(`Incidents and maintenances of ${input.title}`)}</description>
    <atom:link href="${x(feedUrl(input.baseUrl, input.slug, 'rss'))}" rel="self" type="application/rss+xml"/>
    <lastBuildDate>${rfc822(updated)}</lastBuildDate>
    <ttl>1</ttl>
${entries.map(item).join('')}  </channel>
</rss>
`;
  return { body, updated };
};
