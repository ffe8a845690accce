// A message's id follows from what it reports and to whom: a replay or a second notifier that
// plans the same (source, subscriber) computes the same id, the webhook-id every retry carries.
import { createHash } from 'node:crypto';

export const messageIdOf = (source: string, subscriberId: string): string =>
  `msg_${createHash('sha256').update(`${source}\u0000${subscriberId}`).digest('base64url').slice(0, 22)}`;
