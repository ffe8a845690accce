// The security headers of the status page's documents (docs/status-page.md, "Security headers").
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
