// The `domains` hash of a partition: slug → {"domain", "since"}, the page's custom domain claim
// (docs/read-models.md, "Custom domains").
import { z } from 'zod';
import { parseStoredJson } from '../store/corruptReadModel.ts';

export const DomainClaim = z.object({ domain: z.string().min(1), since: z.string().regex(/^\d+$/) });
export type DomainClaim = z.infer<typeof DomainClaim>;

export const encodeDomainClaim = (claim: DomainClaim): string =>
  JSON.stringify({ domain: claim.domain, since: claim.since });

/** @throws CorruptReadModel on a malformed claim */
export const decodeDomainClaims = (hash: Readonly<Record<string, string>>): Map<string, DomainClaim> =>
  new Map(
    Object.entries(hash).map(([slug, text]) => [slug, parseStoredJson(DomainClaim, text, 'domain claim')]),
  );

const later = (a: string, b: string): boolean => a.length > b.length || (a.length === b.length && a > b);

/**
 * Domain → slug over the claims of every partition. Partitions catch up independently, so a
 * domain that moved between pages may briefly be claimed twice: the later claim is the current one.
 */
export const resolveDomains = (claims: Iterable<ReadonlyMap<string, DomainClaim>>): Map<string, string> => {
  const best = new Map<string, { slug: string; since: string }>();
  for (const partition of claims)
    for (const [slug, { domain, since }] of partition) {
      const current = best.get(domain);
      if (current === undefined || later(since, current.since)) best.set(domain, { slug, since });
    }
  return new Map([...best].map(([domain, { slug }]) => [domain, slug]));
};
