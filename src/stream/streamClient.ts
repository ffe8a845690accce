// One open live stream: what it asked for and how to write to it. Kept small: a process holds
// tens of thousands of them.
import type { ServerResponse } from 'node:http';
import type { EmbedStatusQuery } from '../http/schemas.ts';

export type StreamClient = {
  readonly slug: string;
  readonly query: EmbedStatusQuery;
  /** The auth_token the stream was opened with (private pages are checked again on each change). */
  readonly token: string | undefined;
  readonly res: ServerResponse;
  /** The id of the last event sent (or the Last-Event-ID it resumed from). */
  lastId: number;
};

const PARTS = { inc: 'incidents:rev', rtm: 'rtm:rev', upd: 'upd:rev' } as const;

/**
 * The event id of a stream's body: the newest revision among the embed parts it shows. Each part's
 * revision only grows, so ids of one variant only grow, and a part the stream does not show never
 * causes an event.
 */
export const eventId = (fields: Readonly<Record<string, string>>, query: EmbedStatusQuery): number => {
  const rev = (field: string) => Number(fields[field] ?? 0) || 0;
  let id = Math.max(rev('head:rev'), rev('tail:rev'));
  if (query.inc === '1') id = Math.max(id, rev(PARTS.inc));
  if (query.rtm !== undefined) id = Math.max(id, rev(PARTS.rtm));
  if (query.upd !== undefined) id = Math.max(id, rev(PARTS.upd));
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
