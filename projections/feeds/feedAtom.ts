// The page's Atom 1.0 feed (RFC 4287), served at /s/{slug}/feed.atom.
import { formatTimestamp } from '../../src/shared/time.ts';
import {
  feedEntries,
  feedUpdated,
  feedUrl,
  oncePerEntry,
  type FeedEntry,
  type FeedInput,
} from './feedEntries.ts';
import { xmlText as x } from './xml.ts';

const entryXml = (e: FeedEntry): string => `  <entry>
    <id>${x(e.id)}</id>
    <title type="text">${x(e.title)}</title>
    <link rel="alternate" type="text/html" href="${x(e.url)}"/>
    <category term="${e.kind}"/>
    <published>${formatTimestamp(e.published)}</published>
    <updated>${formatTimestamp(e.updated)}</updated>
    <content type="html">${x(e.content)}</content>
  </entry>
`;

/** Entries of unchanged incidents are shared between renders (feedEntries.ts): XML once each. */
const entry = oncePerEntry(entryXml);

export const renderAtom = (
  input: FeedInput,
  entries: readonly FeedEntry[] = feedEntries(input),
): { body: string; updated: number } => {
  const updated = feedUpdated(input, entries);
  const self = feedUrl(input.baseUrl, input.slug, 'atom');
  const body = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${x(self)}</id>
  <title type="text">${x(input.title)}</title>
  <subtitle type="text">${x(`Incidents and maintenances of ${input.title}`)}</subtitle>
  <link rel="alternate" type="text/html" href="${x(input.pageUrl)}"/>
  <link rel="self" type="application/atom+xml" href="${x(self)}"/>
  <updated>${formatTimestamp(updated)}</updated>
  <author><name>${x(input.title)}</name></author>
${entries.map(entry).join('')}</feed>
`;
  return { body, updated };
};
