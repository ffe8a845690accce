// How every subscription page is sent: never cached (they are personal), no referrer (their URLs
// carry tokens), the status page's policy but with forms allowed to post to this origin.
import type { Response } from 'express';
import { documentHeaders } from '../../statusPage/securityHeaders.ts';

const headers = (): Record<string, string> => {
  const closed = documentHeaders('private');
  return {
    ...closed,
    'Content-Security-Policy': (closed['Content-Security-Policy'] ?? '').replace(
      "form-action 'none'",
      "form-action 'self'",
    ),
  };
};

export const sendPage = (res: Response, status: number, html: string): void => {
  res
    .status(status)
    .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers() })
    .end(html);
};
