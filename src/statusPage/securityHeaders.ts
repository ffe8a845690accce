// The security headers of the status page's documents (docs/status-page.md, "Security headers"). Every
// tenant's page shares one origin and a private page keeps its token in sessionStorage, so the
// documents allow only the page's own script, stylesheet and API calls (no inline script or
// style), send no Referer (a token may still be in the address when the stylesheet loads), and
// may be framed only when there is nothing to protect: a public page, by any site (embedding a
// public status page is a common wish, and it has nothing to click that acts); a private page or
// an error page, by nobody.
type DocumentKind = 'public' | 'private' | 'error';

const policy = (frameAncestors: string): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

const PUBLIC_POLICY = policy('*');
const CLOSED_POLICY = policy("'none'");

export const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;

export const documentHeaders = (kind: DocumentKind): Record<string, string> => ({
  'Content-Security-Policy': kind === 'public' ? PUBLIC_POLICY : CLOSED_POLICY,
  ...NOSNIFF,
  'Referrer-Policy': 'no-referrer',
  ...(kind === 'public' ? {} : { 'X-Frame-Options': 'DENY' }), // for browsers without frame-ancestors
});
