// The double opt-in mail. A new (or still pending) address gets the confirm link; an address that
// is already subscribed gets its manage link instead, so the answer to the sign-up is the same
// either way and only the owner of the mailbox learns which it was. No list headers: this is not
// list traffic, and one-click unsubscribe of a subscription that does not exist yet means nothing.
import { renderHtml, renderText } from './mailLayout.ts';
import type { ComposedMail } from './composedMail.ts';
import type { Locale } from '../../../projections/locale/locales.ts';
import { mailTexts } from './texts.ts';

export type ConfirmationInput = Readonly<{
  from: string;
  domain: string;
  to: string;
  page: Readonly<{ title: string; url: string; locale: Locale }>;
  /** `confirm`: a pending sign-up's confirm page; `known`: an active one's manage page. */
  kind: 'confirm' | 'known';
  link: string;
  /** Unique per mail (a random id): confirmation mails are never retried as the same message. */
  id: string;
}>;

export const composeConfirmation = (input: ConfirmationInput): ComposedMail => {
  const title = input.page.title;
  const texts = mailTexts(input.page.locale);
  const confirm = input.kind === 'confirm';
  const subject = confirm ? texts.confirmSubject(title) : texts.knownSubject(title);
  const frame = {
    texts,
    pageTitle: title,
    pageUrl: input.page.url,
    heading: subject,
    blocks: confirm
      ? [
          { text: texts.confirmIntro(title) },
          { link: input.link, label: texts.confirmAction },
          { text: texts.confirmExpiry },
        ]
      : [{ text: texts.knownIntro(title) }, { link: input.link, label: texts.manage }],
  };
  return {
    from: input.from,
    to: input.to,
    subject,
    messageId: `<${input.id}@${input.domain}>`,
    text: renderText(frame),
    html: renderHtml(frame),
    headers: { 'Content-Language': { prepared: true, value: texts.locale } },
  };
};
