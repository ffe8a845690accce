// "One domain, one page" (docs/ingest.md): a page.configured may name a custom domain only when no
// other live page holds it and it is not the service's own host. Checked against the write model's
// `pages.custom_domain`, overlaid with what earlier events of the same batch did.
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { ParsedEvent } from '../events/parseEvent.ts';
import { normalizeHost } from '../shared/hostName.ts';
import { pageHash } from '../shared/pageHash.ts';

export type DomainClaims = {
  /** Compared form of a domain → the live page holding it, or null once free. */
  holders: Map<string, string | null>;
  /** Slug → the domain it holds (null: none). */
  held: Map<string, string | null>;
  /** The service's own public host: no page may claim it. */
  ownHost: string | null;
};

export const emptyDomainClaims = (ownHost: string | null): DomainClaims => ({
  holders: new Map(),
  held: new Map(),
  ownHost,
});

/** The compared form of the domain a page.configured claims; null for none. */
export const claimedDomain = (event: ParsedEvent): string | null =>
  event.type === 'page.configured' && event.data.custom_domain !== null
    ? normalizeHost(event.data.custom_domain)
    : null;

/** Advisory lock keys (int4) of the domains the events claim: two batches claiming one domain queue. */
export const domainLockKeys = (events: readonly ParsedEvent[]): number[] =>
  [...new Set(events.map(claimedDomain).filter((d) => d !== null))].map((domain) => pageHash(domain) | 0);

/** Loads the holders of the claimed domains and the domains of the pages, where the overlay lacks them. */
export const loadDomainClaims = async (
  tx: DatabaseTransactionConnection,
  claims: DomainClaims,
  events: readonly ParsedEvent[],
): Promise<void> => {
  const domains = [...new Set(events.map(claimedDomain).filter((d) => d !== null))].filter(
    (d) => !claims.holders.has(d),
  );
  const pages = [...new Set(events.map((e) => e.page))].filter((p) => !claims.held.has(p));
  if (domains.length === 0 && pages.length === 0) return;
  const rows = await tx.any(sql.type(z.object({ slug: z.string(), custom_domain: z.string() }))`
    SELECT slug, custom_domain FROM pages
    WHERE custom_domain IS NOT NULL
      AND (custom_domain = ANY(${sql.array(domains, 'text')}) OR slug = ANY(${sql.array(pages, 'text')}))`);
  for (const domain of domains) claims.holders.set(domain, null);
  for (const page of pages) claims.held.set(page, null);
  for (const row of rows) {
    // The overlay is newer than the table: only fill in what it does not know yet.
    if (domains.includes(row.custom_domain)) claims.holders.set(row.custom_domain, row.slug);
    if (pages.includes(row.slug)) claims.held.set(row.slug, row.custom_domain);
  }
};

/** Records that `page` now holds `domain` (or none); returns why it may not, or null. */
export const claimDomain = (claims: DomainClaims, page: string, domain: string | null): string | null => {
  if (domain !== null) {
    if (domain === claims.ownHost) return `data.custom_domain: "${domain}" is this service's own host`;
    const holder = claims.holders.get(domain) ?? null;
    if (holder !== null && holder !== page)
      return `data.custom_domain: "${domain}" is already the custom domain of page "${holder}"`;
  }
  const previous = claims.held.get(page) ?? null;
  if (previous !== null && previous !== domain) claims.holders.set(previous, null);
  if (domain !== null) claims.holders.set(domain, page);
  claims.held.set(page, domain);
  return null;
};

/** A deleted page frees its domain. */
export const releaseDomain = (claims: DomainClaims, page: string): void => {
  claimDomain(claims, page, null);
};
