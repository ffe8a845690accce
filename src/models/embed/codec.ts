// The embed hash (docs/read-models.md): JSON fragments the API joins per request.
import type { EmbedParts } from '../../../projections/render/embed.ts';

export type { EmbedParts };

const FIELDS = ['head', 'incidents', 'rtm', 'upd', 'tail'] as const satisfies readonly (keyof EmbedParts)[];

export const encodeEmbed = (parts: EmbedParts): [string, string][] => FIELDS.map((f) => [f, parts[f]]);

/** The stored parts; a field no render wrote is missing. */
export const decodeEmbed = (hash: Readonly<Record<string, string>>): Partial<EmbedParts> => {
  const parts: Partial<Record<keyof EmbedParts, string>> = {};
  for (const f of FIELDS) if (hash[f] !== undefined) parts[f] = hash[f];
  return parts;
};
