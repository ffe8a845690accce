// Slack, Teams and Discord webhooks differ only in the body: the URL itself is the credential.
import type { NotificationMessage } from '../../../projections/notify/message.ts';
import type { Sender } from '../channel.ts';
import type { JsonPoster } from '../delivery/postJson.ts';

export const chatSender =
  (post: JsonPoster, render: (message: NotificationMessage) => unknown): Sender =>
  (recipient, message) =>
    post({ url: recipient.target, body: JSON.stringify(render(message)) });
