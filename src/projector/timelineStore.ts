// How a monitor's timeline state is kept in Redis (docs/read-models.md): the latest check, the
// open failure, the recent checks a late arrival may need, and the closed failures.
import type { CheckStatus } from '../events/check.ts';
import type { Interval } from '../../projections/types.ts';
import type { TimedCheck } from '../../projections/timeline.ts';

export type TimelineHead = Readonly<{
  first: number;
  last: TimedCheck;
  openDownStart: number | null;
}>;

const statusCode = { up: 'u', down: 'd', degraded: 'g' } as const satisfies Record<CheckStatus, string>;
const statusOf: Record<string, CheckStatus> = { u: 'up', d: 'down', g: 'degraded' };

export const encodeRecent = (check: TimedCheck): string =>
  `${check.at}:${check.position}:${statusCode[check.status]}`;
export const decodeRecent = (member: string): TimedCheck => {
  const [at = '0', position = '0', code = 'u'] = member.split(':');
  return { at: Number(at), position: BigInt(position), status: statusOf[code] ?? 'up' };
};

export const encodeInterval = (interval: Interval): string => `${interval.start}:${interval.end}`;
export const decodeInterval = (member: string): Interval => {
  const [start = '0', end = '0'] = member.split(':');
  return { start: Number(start), end: Number(end) };
};

export const parseTimelineHead = (hash: Record<string, string>): TimelineHead | null => {
  if (hash['last_at'] === undefined) return null;
  return {
    first: Number(hash['first']),
    last: {
      at: Number(hash['last_at']),
      position: BigInt(hash['last_pos'] ?? '0'),
      status: (hash['last_status'] ?? 'up') as CheckStatus,
    },
    openDownStart: hash['open_down'] === undefined ? null : Number(hash['open_down']),
  };
};
