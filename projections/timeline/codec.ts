// How a monitor's timeline is stored: head, recent checks, closed failures and day summaries
// (docs/read-models.md).
import type { TimedCheck } from './timeline.ts';
import type { DaySummary, Interval } from '../types.ts';
import { DAY_MS, HOUR_MS } from '../../src/shared/time.ts';
import type { CheckStatus } from '../../src/events/check.ts';

export type TimelineHead = Readonly<{
  first: number;
  last: TimedCheck;
  openDownStart: number | null;
}>;

const statusCode = { up: 'u', down: 'd', degraded: 'g' } as const satisfies Record<CheckStatus, string>;
const statusOf: Record<string, CheckStatus> = { u: 'up', d: 'down', g: 'degraded' };

/** The hour (epoch ms ÷ 3,600,000) whose set holds a recent check. */
export const recentHourOf = (at: number): number => Math.floor(at / HOUR_MS);

/** A recent check's member; its `at` is the score, so the member stays short. */
export const encodeRecent = (check: TimedCheck): string => `${check.position}:${statusCode[check.status]}`;
export const decodeRecent = (member: string, score: string | number): TimedCheck => {
  const [position = '0', code = 'u'] = member.split(':');
  return { at: Number(score), position: BigInt(position), status: statusOf[code] ?? 'up' };
};

export const encodeInterval = (interval: Interval): string => `${interval.start}:${interval.end}`;
export const decodeInterval = (member: string): Interval => {
  const [start = '0', end = '0'] = member.split(':');
  return { start: Number(start), end: Number(end) };
};

/** A day summary and the start (ms) of its day. */
export const decodeDaySummary = (member: string): [dayStart: number, summary: DaySummary] => {
  const [day = '0', ms = '0', starts = '0', firstStart = '0'] = member.split(':');
  return [Number(day) * DAY_MS, { ms: Number(ms), starts: Number(starts), firstStart: Number(firstStart) }];
};

/** The head hash's fields in write order; `open_down` is absent while the monitor is not down. */
export const encodeHead = (head: TimelineHead): [string, string][] => [
  ['first', String(head.first)],
  ['last_at', String(head.last.at)],
  ['last_pos', String(head.last.position)],
  ['last_status', head.last.status],
];

export const decodeHead = (hash: Readonly<Record<string, string>>): TimelineHead | null => {
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
