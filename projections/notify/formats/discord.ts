// A Discord webhook body: `content` (≤ 2,000 characters) and one embed within Discord's limits
// (title 256, description 4,096, field name 256 and value 1,024, footer 2,048, 6,000 in all).
// Mentions in incident text never ping anyone: allowed_mentions parses none.
import type { NotificationMessage } from '../message.ts';
import { summarize, type Tone } from './summary.ts';
import { truncate } from './truncate.ts';

export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

const colors = { bad: 0xd93f0b, warning: 0xfbca04, good: 0x2ea44f, info: 0x1f6feb } as const satisfies Record<
  Tone,
  number
>;

export const renderDiscord = (message: NotificationMessage) => {
  const { headline, text, facts, url, tone } = summarize(message);
  const title = truncate(headline, DISCORD_LIMITS.title);
  const footer = truncate(message.page.title, DISCORD_LIMITS.footer);
  const fields = facts.slice(0, DISCORD_LIMITS.fields).map((f) => ({
    name: truncate(f.name, DISCORD_LIMITS.fieldName),
    value: truncate(f.value, DISCORD_LIMITS.fieldValue),
    inline: false,
  }));
  const others =
    title.length + footer.length + fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  // The description gives way: what is left of the 6,000 after the title, fields and footer.
  const room = Math.min(DISCORD_LIMITS.description, DISCORD_LIMITS.total - others);
  return {
    content: truncate(`**${message.page.title}**: ${headline}`, DISCORD_LIMITS.content),
    embeds: [
      {
        title,
        url,
        ...(text === '' ? {} : { description: truncate(text, room) }),
        color: colors[tone],
        timestamp: message.timestamp,
        fields,
        footer: { text: footer },
      },
    ],
    allowed_mentions: { parse: [] },
  };
};
