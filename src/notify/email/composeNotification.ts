// One notification as one mail: subject, text and HTML parts, the RFC 8058 list headers and a
// Message-ID derived from the outbox's message id, so every retry is recognisably the same mail.
import type { NotificationMessage } from '../../../projections/notify/message.ts';
import { renderHtml, renderText, type Block } from './mailLayout.ts';
import type { ComposedMail, SubscriberLinks } from './composedMail.ts';
import { mailTexts } from './texts.ts';

const newestFirst = <T extends { created_at: string }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => b.created_at.localeCompare(a.created_at));

const incidentBlocks = (message: NotificationMessage): Block[] => {
  const incident = message.incident;
  if (!incident) return [];
  const shown = newestFirst(incident.updates).slice(0, Math.max(1, message.coalesced ?? 1));
  return [
    ...(shown.length > 1 ? [{ text: mailTexts.coalesced(shown.length) }] : []),
    ...shown.map((update) => ({
      text: `${mailTexts.incidentState(update.status)} (${update.created_at})\n${update.message}`,
    })),
    ...(incident.components.length ? [{ text: mailTexts.components(incident.components) }] : []),
  ];
};

const maintenanceBlocks = (message: NotificationMessage): Block[] => {
  const maintenance = message.maintenance;
  if (!maintenance) return [];
  return [
    ...(maintenance.description ? [{ text: maintenance.description }] : []),
    { text: mailTexts.window(maintenance.scheduled_start, maintenance.scheduled_end) },
    ...(maintenance.components.length ? [{ text: mailTexts.components(maintenance.components) }] : []),
  ];
};

const subjectOf = (message: NotificationMessage): string =>
  message.incident?.title ?? message.maintenance?.title ?? message.monitor?.name ?? message.page.title;

export const composeNotification = (
  message: NotificationMessage,
  to: string,
  links: SubscriberLinks,
): ComposedMail => {
  const heading = mailTexts.headline(message.type, subjectOf(message));
  const frame = {
    pageTitle: message.page.title,
    pageUrl: message.page.url,
    heading,
    blocks: [
      ...incidentBlocks(message),
      ...maintenanceBlocks(message),
      ...(message.monitor
        ? [{ text: mailTexts.monitorState(message.monitor.name, message.monitor.state) }]
        : []),
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
      // Prepared: nodemailer writes them as given, each on one line (RFC 8058 wants them whole).
      'List-Unsubscribe': { prepared: true, value: `<${links.unsubscribe}>` },
      'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
    },
  };
};
