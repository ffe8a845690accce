// Keys of the embed model (the widget's parts, the snippets response and the badge's status) and
// the embed hash (docs/read-models.md): JSON fragments the API joins per request.
import type { EmbedParts } from './embed.ts';
import { pagePrefix, type PageRef } from '../store/page.ts';

export const embedKeys = (page: PageRef) => {
  const p = pagePrefix(page);
  return {
    embed: `${p}:embed`,
    snippets: `${p}:snippets`,
    overall: `${p}:overall`,
    /** The instants the stored overall holds for (overallSpan.ts). */
    overallSpan: `${p}:overall:span`,
  };
};

export type { EmbedParts };

const FIELDS = ['head', 'incidents', 'tail'] as const satisfies readonly (keyof EmbedParts)[];

export const encodeEmbed = (parts: EmbedParts): [string, string][] => FIELDS.map((f) => [f, parts[f]]);

/** The stored parts; a field no render wrote is missing. */
export const decodeEmbed = (hash: Readonly<Record<string, string>>): Partial<EmbedParts> => {
  const parts: Partial<Record<keyof EmbedParts, string>> = {};
  for (const f of FIELDS) if (hash[f] !== undefined) parts[f] = hash[f];
  return parts;
};

/** Per part, the revision at which it last changed (`<field>:rev`, written by the commit script). */
export type EmbedRevisions = Readonly<Record<keyof EmbedParts, number>>;

export const decodeRevisions = (hash: Readonly<Record<string, string>>): EmbedRevisions => {
  const revision = (f: keyof EmbedParts) => Number(hash[`${f}:rev`] ?? 0) || 0;
  return {
    head: revision('head'),
    incidents: revision('incidents'),
    tail: revision('tail'),
  };
};
