// A Microsoft Teams Workflows webhook body: a message with one Adaptive Card attachment. Teams
// refuses messages over 28 KB, so the text is cut well below that.
import type { NotificationMessage } from '../message.ts';
import { summarize, type Tone } from './summary.ts';
import { truncate } from './truncate.ts';

const colors = {
  bad: 'Attention',
  warning: 'Warning',
  good: 'Good',
  info: 'Accent',
} as const satisfies Record<Tone, string>;

export const renderTeams = (message: NotificationMessage) => {
  const { headline, text, facts, url, tone } = summarize(message);
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: message.page.title, size: 'Small', isSubtle: true, wrap: true },
            {
              type: 'TextBlock',
              text: truncate(headline, 500),
              size: 'Medium',
              weight: 'Bolder',
              color: colors[tone],
              wrap: true,
            },
            ...(text === '' ? [] : [{ type: 'TextBlock', text: truncate(text, 10_000), wrap: true }]),
            ...(facts.length === 0
              ? []
              : [
                  {
                    type: 'FactSet',
                    facts: facts.map((f) => ({ title: f.name, value: truncate(f.value, 1000) })),
                  },
                ]),
            { type: 'TextBlock', text: message.timestamp, size: 'Small', isSubtle: true, wrap: true },
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'View status page', url }],
        },
      },
    ],
  };
};
