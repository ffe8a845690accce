// The embed status body joined from its stored parts, with rtm and upd computed from the series
// when asked for; shared by the status route and the live stream.
import { rtmMinutes, rtmWindow, updDays } from '../../../projections/embed/embed.ts';
import type { MonitorSnapshot } from '../../../projections/types.ts';
import { formatTimestamp } from '../../shared/time.ts';
import { ApiError } from '../../http/errors.ts';
import type { EmbedParts } from '../../../projections/embed/codec.ts';
import type { EmbedStatusQuery as Query } from '../../http/schemas.ts';

/** What rtm and upd are cut from: the same for every variant of a page at one instant. */
export type SeriesFigures = Readonly<{ rtm: readonly (number | null)[]; upd: readonly number[] }>;

/** The page's 240 minutes of response times and 30 days of uptime at `now`. */
export const seriesFigures = (monitors: readonly MonitorSnapshot[], now: number): SeriesFigures => ({
  rtm: rtmMinutes(monitors, now),
  upd: updDays(monitors, now),
});

/** A read with the series (monitors null when not asked for) as a body's source at `now`. */
export const withFigures = <T extends Readonly<{ monitors: readonly MonitorSnapshot[] | null }>>(
  read: T,
  now: number,
): T & Readonly<{ figures: SeriesFigures | null; now: number }> => ({
  ...read,
  figures: read.monitors === null ? null : seriesFigures(read.monitors, now),
  now,
});

/**
 * What a body is made of: the stored parts, the page's latest event (`updated`), and the series'
 * figures (computed only when rtm or upd is asked for).
 */
type EmbedSource = Readonly<{
  parts: Partial<EmbedParts>;
  updatedAt: number | null;
  figures: SeriesFigures | null;
  now: number;
}>;

/** Whether the query shows figures computed from the series. */
export const needsSeries = (query: Query): boolean => query.rtm !== undefined || query.upd !== undefined;

/** @throws ApiError service_unavailable when a needed part was not rendered (or the series not read) */
export const embedBody = ({ parts, updatedAt, figures, now }: EmbedSource, query: Query): string => {
  const field = (name: keyof EmbedParts): string => {
    const value = parts[name];
    if (value === undefined) throw new ApiError('service_unavailable');
    return value;
  };
  const series = (): SeriesFigures => {
    if (figures === null) throw new ApiError('service_unavailable');
    return figures;
  };
  const rtm = query.rtm === undefined ? '' : `,"rtm":${JSON.stringify(rtmWindow(series().rtm, query.rtm))}`;
  const upd = query.upd === undefined ? '' : `,"upd":${JSON.stringify(series().upd.slice(-query.upd))}`;
  const incidents = query.inc === '1' ? field('incidents') : '[]';
  const head = field('head');
  // A head rendered by an earlier release still holds `updated` (the slug, URL and status never
  // contain a quote): it is sent as it is until the page's next render.
  const updated = head.includes('"updated":')
    ? ''
    : `,"updated":${JSON.stringify(formatTimestamp(updatedAt ?? now))}`;
  return `{${head}${updated},"incidents":${incidents}${rtm}${upd},${field('tail')}}`;
};
