// What one notification says, whatever the channel: the renderers of each channel (email, webhook,
// Slack, Teams, Discord) turn this into their own body. Pure data, stored as the outbox's payload.
import type { Incident, Maintenance } from '../../src/contract/responseSchemas.ts';
import type { Locale } from '../locale/locales.ts';

export type NotificationType =
  | 'incident.opened'
  | 'incident.updated'
  | 'maintenance.scheduled'
  | 'maintenance.reminder'
  | 'maintenance.started'
  | 'maintenance.completed'
  | 'maintenance.cancelled'
  | 'maintenance.rescheduled'
  | 'monitor.state';

export type NotifiedPage = Readonly<{
  slug: string;
  title: string;
  url: string;
  /** The page's language when it is not the default (messages stored before it have none: en). */
  locale?: Locale;
}>;

export type MonitorState = Readonly<{
  id: string;
  name: string;
  state: 'up' | 'degraded' | 'down';
  since: string;
}>;

export type NotificationMessage = Readonly<{
  /** Stable for the message and all its retries: the webhook-id and the Message-ID's local part. */
  id: string;
  type: NotificationType;
  /** ISO 8601, UTC: when what it reports happened. */
  timestamp: string;
  page: NotifiedPage;
  /** Exactly the read API's objects, as they stand after what the message reports. */
  incident?: Incident;
  maintenance?: Maintenance;
  monitor?: MonitorState;
  /** More than one when updates of one incident were coalesced: oldest first. */
  coalesced?: number;
}>;
