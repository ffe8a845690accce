// One notification as one mail: subject, text and HTML parts, the RFC 8058 list headers and a
// Message-ID derived from the outbox's message id, so every retry is recognisably the same mail.
import type { NotificationMessage } from '../../../projections/notify/message.ts';
import { renderHtml, renderText, type Block } from './mailLayout.ts';
import type { ComposedMail, SubscriberLinks } from './composedMail.ts';
import { DEFAULT_LOCALE } from '../../../projections/locale/locales.ts';
import { mailTexts, type MailTexts } from './texts.ts';

const newestFirst = <T extends { created_at: string }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => b.created_at.localeCompare(a.created_at));

const incidentBlocks = (message: NotificationMessage, texts: MailTexts): Block[] => {
  const incident = message.incident;
  if (!incident) return [];
  const shown = newestFirst(incident.updates).slice(0, Math.max(1, message.coalesced ?? 1));
  return [
    ...(shown.length > 1 ? [{ text: texts.coalesced(shown.length) }] : []),
    ...shown.map((update) => ({
      text: `${texts.update(update.status, update.created_at)}\n${update.message}`,
    })),
    ...(incident.components.length ? [{ text: texts.components(incident.components) }] : []),
  ];
};

const maintenanceBlocks = (message: NotificationMessage, texts: MailTexts): Block[] => {
  const maintenance = message.maintenance;
  if (!maintenance) return [];
  return [
    ...(maintenance.description ? [{ text: maintenance.description }] : []),
    { text: texts.window(maintenance.scheduled_start, maintenance.scheduled_end) },
    ...(maintenance.components.length ? [{ text: texts.components(maintenance.components) }] : []),
  ];
};

const subjectOf = (message: NotificationMessage): string =>
  message.incident?.title ?? message.maintenance?.title ?? message.monitor?.name ?? message.page.title;

export const composeNotification = (
  message: NotificationMessage,
  to: string,
  links: SubscriberLinks,
): ComposedMail => {
  const texts = mailTexts(message.page.locale ?? DEFAULT_LOCALE);
  const heading = texts.headline(message.type, subjectOf(message));
  const frame = {
    texts,
    pageTitle: message.page.title,
    pageUrl: message.page.url,
    heading,
    blocks: [
      ...incidentBlocks(message, texts),
      ...maintenanceBlocks(message, texts),
      ...(message.monitor ? [{ text: texts.monitorState(message.monitor.name, message.monitor.state) }] : []),
    ],
    footer: { manageUrl: links.manage, unsubscribeUrl: links.unsubscribe },
  };
  return {
    from: links.from,
    to,
    subject: `[${message.page.title}] ${heading}`,
    messageId: `<${message.id}@${links.domain}>`,
    text: renderText(frame),
    html: renderHtml(frame),
    headers: {
      'Content-Language': { prepared: true, value: texts.locale },
      // Prepared: nodemailer writes them as given, each on one line (RFC 8058 wants them whole).
      'List-Unsubscribe': { prepared: true, value: `<${links.unsubscribe}>` },
      'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
    },
  };
};
