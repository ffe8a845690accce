// One open live stream: what it asked for and how to write to it. Kept small: a process holds
// tens of thousands of them.
import type { ServerResponse } from 'node:http';
import type { EmbedStatusQuery } from '../http/schemas.ts';
import type { EmbedRevisions } from '../models/embed/codec.ts';

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

/**
 * The event id of a stream's body: the newest revision among the embed parts it shows. Each part's
 * revision only grows, so ids of one variant only grow, and a part the stream does not show never
 * causes an event.
 */
export const eventId = (revisions: EmbedRevisions, query: EmbedStatusQuery): number => {
  let id = Math.max(revisions.head, revisions.tail);
  if (query.inc === '1') id = Math.max(id, revisions.incidents);
  if (query.rtm !== undefined) id = Math.max(id, revisions.rtm);
  if (query.upd !== undefined) id = Math.max(id, revisions.upd);
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
