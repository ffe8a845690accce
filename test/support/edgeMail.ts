// The mails of the topology's API processes as a reader gets them: links out of their text, and a
// notification mail (the one with List-Unsubscribe) sent as the notifier sends it.
import { simpleParser } from 'mailparser';
import { expect } from 'vitest';
import { createEmailSender } from '../../src/notify/email/emailSender.ts';
import { loadMailKey } from '../../src/notify/email/mailKey.ts';
import { loadMailSettings } from '../../src/notify/email/mailSettings.ts';
import { createMailTransport } from '../../src/notify/email/transport.ts';
import { MAIL_FROM, type Topology } from './edgeTopology.ts';
import { incidentMessage } from './notificationMessages.ts';

/** A mail link's path and query: its origin is PUBLIC_BASE_URL (here the API's own), not the proxy's. */
export const pathOf = (link: string): string => `${new URL(link).pathname}${new URL(link).search}`;

/** The path and query of the link after `label: ` in a mail's text. */
export const linkIn = (text: string, label: string): string => {
  const url = new RegExp(`${label}: (http\\S+)`).exec(text)?.[1];
  if (url === undefined) throw new Error(`no "${label}" link in:\n${text}`);
  return pathOf(url);
};

/** A notification mail to subscriber `id`, as the notifier sends it (the installation's key and settings). */
export const notificationMail = async (topology: Topology, id: string, email: string) => {
  const settings = loadMailSettings({ MAIL_URL: topology.smtp.url, MAIL_FROM }, '127.0.0.1');
  const transport = createMailTransport(settings)!;
  const key = await loadMailKey(topology.env.t.db, null);
  const sender = createEmailSender({
    transport,
    settings,
    key,
    baseUrl: topology.apiUrl,
    clock: () => new Date(),
  });
  const arriving = topology.smtp.next(email);
  try {
    const recipient = {
      id,
      page: 'acme',
      channel: 'email',
      target: email,
      format: 'native',
      secrets: [],
    } as const;
    expect(await sender(recipient, incidentMessage())).toEqual({ kind: 'delivered', status: 250 });
  } finally {
    transport.close();
  }
  return simpleParser((await arriving).raw);
};
