// A Slack incoming-webhook body: `text` (the notification and fallback) and Block Kit `blocks`,
// within Block Kit's limits (header 150, section text 3,000, field 2,000 characters).
import type { NotificationMessage } from '../message.ts';
import { summarize } from './summary.ts';
import { truncate } from './truncate.ts';

/** Slack's mrkdwn treats only these three as control characters (its "Escaping text" guide). */
export const escapeMrkdwn = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const mrkdwn = (text: string, max: number) => ({ type: 'mrkdwn', text: truncate(escapeMrkdwn(text), max) });

export const renderSlack = (message: NotificationMessage) => {
  const { headline, text, facts, url } = summarize(message);
  const link = `<${escapeMrkdwn(url)}|${escapeMrkdwn(message.page.title)}>`;
  return {
    text: truncate(escapeMrkdwn(`${message.page.title}: ${headline}`), 3000),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: truncate(headline, 150), emoji: false } },
      ...(text === '' ? [] : [{ type: 'section', text: mrkdwn(text, 3000) }]),
      ...(facts.length === 0
        ? []
        : [{ type: 'section', fields: facts.map((f) => mrkdwn(`*${f.name}*\n${f.value}`, 2000)) }]),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `${link} · ${message.timestamp}` }] },
    ],
  };
};
