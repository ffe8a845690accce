-- The custom domain each live page holds, so ingest keeps one domain to one page and the
-- operator's certificate check (GET /v1/domains/check) can answer without the read models.
-- Stored in its compared form (lower case ASCII); NULL when the page has none or is deleted.
ALTER TABLE pages ADD COLUMN custom_domain text;

-- Pages configured before this column: each live page's latest settings. Should two live pages
-- have claimed one domain then, the later claim keeps it (as the read model resolves it).
UPDATE pages SET custom_domain = claims.domain
FROM (
  SELECT DISTINCT ON (domain) page, domain
  FROM (
    SELECT DISTINCT ON (e.page) e.page, lower(e.data->>'custom_domain') AS domain, e.position
    FROM event_log e JOIN pages p ON p.slug = e.page AND NOT p.deleted
    WHERE e.type = 'page.configured'
    ORDER BY e.page, e.position DESC
  ) latest
  WHERE domain IS NOT NULL
  ORDER BY domain, position DESC
) claims
WHERE pages.slug = claims.page;

CREATE UNIQUE INDEX pages_custom_domain_key ON pages (custom_domain) WHERE custom_domain IS NOT NULL;
