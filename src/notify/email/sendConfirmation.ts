// The mail a sign-up triggers, sent after the answer: the confirm link for a pending row, the
// manage link for one already confirmed. A failure is logged by subscriber id (never the address);
// the reader can sign up again. Without an SMTP server (the demo) the link is also logged, so the
// whole flow works from the terminal.
import { randomBytes } from 'node:crypto';
import type { Locale } from '../../../projections/locale/locales.ts';
import { composeConfirmation } from './composeConfirmation.ts';
import { confirmUrl, manageUrl } from './links.ts';
import type { SignupDeps } from './signupDeps.ts';
import type { SignedUp } from './subscriberStore.ts';
import { signToken } from './tokens.ts';

export type ConfirmationRequest = Readonly<{
  baseUrl: string;
  /** The page, in its own language: mails do not follow a reader's `?lang=`. */
  page: Readonly<{ slug: string; title: string; url: string; locale: Locale }>;
  email: string;
  row: SignedUp;
}>;

export const sendConfirmation = async (deps: SignupDeps, request: ConfirmationRequest): Promise<void> => {
  const { page, row } = request;
  const kind = row.state === 'pending' ? 'confirm' : 'known';
  const purpose = kind === 'confirm' ? 'confirm' : 'manage';
  const token = signToken(deps.key, { purpose, subscriber: row.id, page: page.slug }, deps.clock());
  const link =
    kind === 'confirm'
      ? confirmUrl(request.baseUrl, page.slug, token)
      : manageUrl(request.baseUrl, page.slug, token);
  const mail = composeConfirmation({
    from: deps.settings.from,
    domain: deps.settings.domain,
    to: request.email.trim(),
    page,
    kind,
    link,
    id: `confirm_${randomBytes(12).toString('base64url')}`,
  });
  try {
    await deps.transport.send(mail);
    if (deps.transport.folder !== null)
      deps.log.info(
        { subscriber: row.id, folder: deps.transport.folder, link },
        `subscription mail written (no MAIL_URL): open the link to ${kind === 'confirm' ? 'confirm' : 'manage'}`,
      );
  } catch (error) {
    // The server's text may quote the address: only its codes are logged.
    const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
    deps.log.warn({ subscriber: row.id, code, status: responseCode }, 'subscription mail not sent');
  }
};
