// One open live stream: what it asked for and how to write to it. Kept small: a process holds
// tens of thousands of them.
import type { ServerResponse } from 'node:http';
import { needsSeries } from './embedBody.ts';
import type { EmbedStatusQuery } from '../../http/schemas.ts';
import type { EmbedRevisions } from '../../../projections/embed/codec.ts';

export type StreamClient = {
  readonly slug: string;
  readonly query: EmbedStatusQuery;
  /** The auth_token the stream was opened with (private pages are checked again on each change). */
  readonly token: string | undefined;
  readonly res: ServerResponse;
  /** The id of the last event sent (or the Last-Event-ID it resumed from). */
  lastId: number;
  /** When the stream ends (its maximum lifetime), in ms since the epoch. */
  readonly endsAt: number;
};

/** What a stream's body depends on besides the stored parts: the page's latest event and the minute. */
type StreamStamp = Readonly<{ revisions: EmbedRevisions; updatedAt: number | null; minute: number }>;

/**
 * The event id of a stream's body: the sum of what its body depends on, each of which only grows
 * (part revisions, the page's latest event, and the minute for rtm and upd). So ids of one variant
 * grow exactly when something it shows may have changed, and equal data gives an equal id in every
 * process (a reconnection elsewhere with Last-Event-ID gets nothing it already has).
 */
export const eventId = ({ revisions, updatedAt, minute }: StreamStamp, query: EmbedStatusQuery): number => {
  let id = revisions.head + revisions.tail + (updatedAt ?? 0);
  if (query.inc === '1') id += revisions.incidents;
  if (needsSeries(query)) id += minute;
  return id;
};

/** The cache key of a body variant: streams asking the same thing share one rendered body. */
export const variantOf = (query: EmbedStatusQuery): string =>
  `${query.inc ?? ''}|${query.rtm ?? ''}|${query.upd ?? ''}`;

/** One `status` event, encoded once and written to every stream of its variant. */
export const statusEvent = (id: number, body: string): Buffer =>
  Buffer.from(`id: ${id}\nevent: status\ndata: ${body}\n\n`, 'utf8');

export const writeEvent = (client: StreamClient, id: number, event: Buffer): void => {
  client.lastId = id;
  client.res.write(event);
};
