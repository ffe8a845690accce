// The embed status body joined from its stored parts, with rtm and upd computed from the series
// when asked for; shared by the status route and the live stream.
import { rtmMinutes, rtmWindow, updDays } from '../../../projections/embed/embed.ts';
import type { MonitorSnapshot } from '../../../projections/types.ts';
import { formatTimestamp } from '../../shared/time.ts';
import { ApiError } from '../../http/errors.ts';
import type { EmbedParts } from '../../../projections/embed/codec.ts';
import type { EmbedStatusQuery as Query } from '../../http/schemas.ts';

/**
 * What a body is made of: the stored parts, the page's latest event (`updated`), and the series
 * (read only when rtm or upd is asked for).
 */
type EmbedSource = Readonly<{
  parts: Partial<EmbedParts>;
  updatedAt: number | null;
  monitors: readonly MonitorSnapshot[] | null;
  now: number;
}>;

/** Whether the query shows figures computed from the series. */
export const needsSeries = (query: Query): boolean => query.rtm !== undefined || query.upd !== undefined;

/** @throws ApiError service_unavailable when a needed part was not rendered (or the series not read) */
export const embedBody = ({ parts, updatedAt, monitors, now }: EmbedSource, query: Query): string => {
  const field = (name: keyof EmbedParts): string => {
    const value = parts[name];
    if (value === undefined) throw new ApiError('service_unavailable');
    return value;
  };
  const series = (): readonly MonitorSnapshot[] => {
    if (monitors === null) throw new ApiError('service_unavailable');
    return monitors;
  };
  const rtm =
    query.rtm === undefined
      ? ''
      : `,"rtm":${JSON.stringify(rtmWindow(rtmMinutes(series(), now), query.rtm))}`;
  const upd =
    query.upd === undefined ? '' : `,"upd":${JSON.stringify(updDays(series(), now).slice(-query.upd))}`;
  const incidents = query.inc === '1' ? field('incidents') : '[]';
  const head = field('head');
  // A head rendered by an earlier release still holds `updated` (the slug, URL and status never
  // contain a quote): it is sent as it is until the page's next render.
  const updated = head.includes('"updated":')
    ? ''
    : `,"updated":${JSON.stringify(formatTimestamp(updatedAt ?? now))}`;
  return `{${head}${updated},"incidents":${incidents}${rtm}${upd},${field('tail')}}`;
};
