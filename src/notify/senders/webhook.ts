// The webhook channel: the `native` or `statuspage` body, signed per Standard Webhooks with every
// live secret of the subscriber, timestamped at the attempt (a retry is signed anew, same id).
import { renderNative } from '../../../projections/notify/formats/native.ts';
import { renderStatuspageWebhook } from '../../../projections/notify/formats/statuspage.ts';
import type { Sender } from '../channel.ts';
import type { JsonPoster } from '../delivery/postJson.ts';
import { signWebhook } from './webhookSignature.ts';

export const webhookSender =
  (post: JsonPoster, now: () => number = Date.now): Sender =>
  async (recipient, message) => {
    // A consumer could not tell a delivery from a forgery: never send one unsigned.
    if (recipient.secrets.length === 0)
      return { kind: 'rejected', status: null, reason: 'no live signing secret' };
    const body = JSON.stringify(
      recipient.format === 'statuspage' ? renderStatuspageWebhook(message) : renderNative(message),
    );
    const headers = signWebhook({ id: message.id, body, atMs: now() }, recipient.secrets);
    return post({ url: recipient.target, body, headers });
  };
