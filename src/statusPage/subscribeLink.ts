// The status page's entry to the email sign-up: a plain link in the document's header, rendered
// by the server when sign-up is on, so it works without the script and costs no request.
import { pageTexts } from '../notify/email/texts.ts';
import { escapeHtml } from '../shared/escapeHtml.ts';

/** `slug` is already a safe path segment. */
export const subscribeLink = (slug: string): string =>
  `<a class="subscribe-link" href="/s/${slug}/subscribe">${escapeHtml(pageTexts.subscribeLink)}</a>`;
