// The Sender of channel `email`: one notification to one subscriber through the mail transport.
// The SMTP server's verdict decides: a permanent refusal (5xx) quarantines the address, anything
// temporary (4xx, a connection that fails) is retried by the dispatcher.
import type { Clock } from '../../shared/clock.ts';
import type { Outcome, Sender } from '../channel.ts';
import { composeNotification } from './composeNotification.ts';
import { manageUrl, unsubscribeUrl } from './links.ts';
import type { MailSettings } from './mailSettings.ts';
import { signToken } from './tokens.ts';
import type { MailTransport } from './transport.ts';

export type EmailSenderDeps = Readonly<{
  transport: MailTransport;
  settings: MailSettings;
  key: Buffer;
  baseUrl: string;
  clock: Clock;
}>;

/** What an SMTP failure means for the subscriber. */
export const outcomeOfError = (error: unknown): Outcome => {
  const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
  const status = typeof responseCode === 'number' ? responseCode : null;
  const name = typeof code === 'string' ? code : 'error';
  const reason = `smtp ${status === null ? name : String(status)}`;
  if (status !== null && status >= 500 && status < 600) return { kind: 'rejected', status, reason };
  return { kind: 'retry', status, retryAfterMs: null, reason };
};

export const createEmailSender =
  (deps: EmailSenderDeps): Sender =>
  async (recipient, message) => {
    const token = signToken(
      deps.key,
      { purpose: 'manage', subscriber: recipient.id, page: recipient.page },
      deps.clock(),
    );
    const mail = composeNotification(message, recipient.target, {
      from: deps.settings.from,
      domain: deps.settings.domain,
      manage: manageUrl(deps.baseUrl, recipient.page, token),
      unsubscribe: unsubscribeUrl(deps.baseUrl, recipient.page, token),
    });
    try {
      const { status } = await deps.transport.send(mail);
      return { kind: 'delivered', status };
    } catch (error) {
      return outcomeOfError(error);
    }
  };
