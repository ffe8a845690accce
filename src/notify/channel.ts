// The one shape every channel's sender has, so the notifier dispatches without knowing channels.
import type { NotificationMessage } from '../../projections/notify/message.ts';

export type Channel = 'email' | 'webhook' | 'slack' | 'teams' | 'discord';

/** A subscriber as a sender needs it: read from PostgreSQL for the send, never kept elsewhere. */
export type Recipient = Readonly<{
  id: string;
  page: string;
  channel: Channel;
  /** The address or URL. */
  target: string;
  format: 'native' | 'statuspage';
  /** Webhook secrets that sign now (the newest first); empty for other channels. */
  secrets: readonly string[];
}>;

export type Outcome =
  | Readonly<{ kind: 'delivered'; status: number | null }>
  /** Try again later; `retryAfterMs` when the receiver said when (Retry-After, retry_after). */
  | Readonly<{ kind: 'retry'; status: number | null; retryAfterMs: number | null; reason: string }>
  /** 410 Gone: the subscriber is disabled. */
  | Readonly<{ kind: 'gone'; status: number }>
  /** A permanent refusal (an SMTP 5xx): the subscriber is quarantined. */
  | Readonly<{ kind: 'rejected'; status: number | null; reason: string }>;

export type Sender = (recipient: Recipient, message: NotificationMessage) => Promise<Outcome>;
