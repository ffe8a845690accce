// Planning checks: the timeline replays in order from the latest check, or, for a late check,
// from the check just before it; buckets count every check.
import { describe, expect, it } from 'vitest';
import { FAILURE_HISTORY_MS } from '../../../projections/timeline/writes.ts';
import { SpanNotLoaded } from '../../../projections/batch/planBatch.ts';
import { aCheck, aHead, aPage, marked, ms, TAG, when, writesTo } from './given.ts';

const mon = `${TAG}:mon:1`;
const day = Math.floor(ms('2026-11-22T00:00:00Z') / 86_400_000);
/** After failures changed on `day`: the history trimmed to FAILURE_HISTORY_MS before the last check, that day summarised. */
const summarised = (lastIso: string) => [
  { op: 'zkeepFrom', key: `${mon}:down`, cutoff: ms(lastIso) - FAILURE_HISTORY_MS },
  { op: 'summarizeDown', key: `${mon}:down`, summary: `${mon}:down:days`, fromDay: day, toDay: day },
];

describe('planBatch: checks in order', () => {
  it('given a new monitor, when it goes down and up, then one closed failure and the head', () => {
    const plan = when({ states: { acme: aPage() } }, [
      aCheck('2026-11-22T10:00:00Z', 'up'),
      aCheck('2026-11-22T10:01:00Z', 'down', 1, 300),
      aCheck('2026-11-22T10:03:00Z', 'up'),
    ]);
    expect(writesTo(plan.writes, `${mon}:down`)).toEqual([
      {
        op: 'zadd',
        key: `${mon}:down`,
        score: ms('2026-11-22T10:01:00Z'),
        member: `${ms('2026-11-22T10:01:00Z')}:${ms('2026-11-22T10:03:00Z')}`,
      },
      ...summarised('2026-11-22T10:03:00Z'),
    ]);
    expect(writesTo(plan.writes, `${mon}:tl`)).toEqual([
      {
        op: 'hset',
        key: `${mon}:tl`,
        fields: [
          ['first', String(ms('2026-11-22T10:00:00Z'))],
          ['last_at', String(ms('2026-11-22T10:03:00Z'))],
          ['last_pos', expect.any(String)],
          ['last_status', 'up'],
        ],
      },
      { op: 'hdel', key: `${mon}:tl`, field: 'open_down' },
    ]);
    expect(writesTo(plan.writes, `${mon}:hr:${day}`)).toEqual([
      { op: 'hincrby', key: `${mon}:hr:${day}`, field: '10:n', by: 3 },
      { op: 'hincrby', key: `${mon}:hr:${day}`, field: '10:rt', by: 500 },
      { op: 'expire', key: `${mon}:hr:${day}`, seconds: 4 * 86_400 },
    ]);
    expect(marked(plan.writes, 'dirty:avail')).toEqual(['acme|1']);
    expect(marked(plan.writes, 'dirty')).toEqual(['acme']);
  });

  it('given a monitor that is up, when it stays up, then its availability is not marked', () => {
    const plan = when(
      {
        states: { acme: aPage() },
        heads: { 1: aHead('2026-11-22T09:00:00Z', '2026-11-22T10:00:00Z', 'up') },
      },
      [aCheck('2026-11-22T10:01:00Z', 'up'), aCheck('2026-11-22T10:02:00Z', 'degraded')],
    );
    expect(marked(plan.writes, 'dirty:avail')).toEqual([]);
    expect(writesTo(plan.writes, `${mon}:down`)).toEqual([]);
    expect(marked(plan.writes, 'dirty')).toEqual(['acme']);
  });

  it('given an open failure, when a check comes up, then the failure closes at its original start', () => {
    const plan = when(
      {
        states: { acme: aPage() },
        heads: { 1: aHead('2026-11-22T09:00:00Z', '2026-11-22T10:00:00Z', 'down', '2026-11-22T09:30:00Z') },
      },
      [aCheck('2026-11-22T10:05:00Z', 'up')],
    );
    const start = ms('2026-11-22T09:30:00Z');
    expect(writesTo(plan.writes, `${mon}:down`)).toEqual([
      { op: 'zadd', key: `${mon}:down`, score: start, member: `${start}:${ms('2026-11-22T10:05:00Z')}` },
      ...summarised('2026-11-22T10:05:00Z'),
    ]);
  });

  it('keeps recent checks of the last 25 hours and one older anchor', () => {
    const plan = when({ states: { acme: aPage() } }, [
      aCheck('2026-11-20T10:00:00Z', 'up'),
      aCheck('2026-11-21T08:00:00Z', 'up'),
      aCheck('2026-11-22T10:00:00Z', 'up'),
    ]);
    const hour = (iso: string) => `${mon}:recent:${ms(iso) / 3_600_000}`;
    const recent = plan.writes.filter(
      (w) => 'key' in w && (w.key.startsWith(`${mon}:recent:`) || w.key === `${mon}:anchor`),
    );
    expect(recent.map((w) => (w.op === 'zadd' ? [w.key, w.score] : w.op))).toEqual([
      [hour('2026-11-21T08:00:00Z'), ms('2026-11-21T08:00:00Z')],
      [hour('2026-11-22T10:00:00Z'), ms('2026-11-22T10:00:00Z')],
      'zkeepFrom',
    ]);
    expect(recent.at(-1)).toEqual({
      op: 'zkeepFrom',
      key: `${mon}:anchor`,
      cutoff: ms('2026-11-22T10:00:00Z') - 25 * 3_600_000,
      // The hour of the older check kept, and the hour of the cutoff.
      from: [hour('2026-11-21T08:00:00Z'), hour('2026-11-21T09:00:00Z')],
    });
  });

  it('trims the hour sets the previous latest check kept alive up to the new cutoff', () => {
    const plan = when(
      {
        states: { acme: aPage() },
        heads: { 1: aHead('2026-11-20T08:00:00Z', '2026-11-21T10:30:00Z', 'up') },
      },
      [aCheck('2026-11-22T12:10:00Z', 'up')],
    );
    const hours = (from: string, count: number) =>
      Array.from({ length: count }, (_, i) => `${mon}:recent:${ms(from) / 3_600_000 + i}`);
    // Kept alive: 2026-11-20T09:00 (25 h before 10:30) to 2026-11-21T10:00; new cutoff 2026-11-21T11:10.
    expect(writesTo(plan.writes, `${mon}:anchor`)).toEqual([
      {
        op: 'zkeepFrom',
        key: `${mon}:anchor`,
        cutoff: ms('2026-11-21T11:10:00Z'),
        from: [
          ...hours('2026-11-20T09:00:00Z', 26),
          `${mon}:recent:${ms('2026-11-21T11:00:00Z') / 3_600_000}`,
        ],
      },
    ]);
  });
});

describe('planBatch: late checks', () => {
  const head = aHead('2026-11-22T08:00:00Z', '2026-11-22T10:00:00Z', 'up');
  const recent = [
    { at: ms('2026-11-22T09:00:00Z'), position: 10n, status: 'up' as const },
    { at: ms('2026-11-22T10:00:00Z'), position: 50n, status: 'up' as const },
  ];

  it('given checks up to 10:00, when a down check for 09:30 arrives, then the span after 09:00 is replayed', () => {
    const plan = when(
      { states: { acme: aPage() }, heads: { 1: head }, spans: { 1: { recent, failures: [] } } },
      [aCheck('2026-11-22T09:30:00Z', 'down')],
    );
    expect(writesTo(plan.writes, `${mon}:down`)).toEqual([
      { op: 'zremFrom', key: `${mon}:down`, min: ms('2026-11-22T09:00:00Z') + 1 },
      {
        op: 'zadd',
        key: `${mon}:down`,
        score: ms('2026-11-22T09:30:00Z'),
        member: `${ms('2026-11-22T09:30:00Z')}:${ms('2026-11-22T10:00:00Z')}`,
      },
      ...summarised('2026-11-22T10:00:00Z'),
    ]);
    // The latest check is still the head's.
    expect(writesTo(plan.writes, `${mon}:tl`)[0]).toMatchObject({
      fields: expect.arrayContaining([['last_at', String(ms('2026-11-22T10:00:00Z'))]]),
    });
    expect(marked(plan.writes, 'dirty:avail')).toEqual(['acme|1']);
  });

  it('given a late down check inside a known failure, then the failure keeps its start', () => {
    const failure = { start: ms('2026-11-22T08:30:00Z'), end: ms('2026-11-22T09:45:00Z') };
    const downRecent = [
      { at: ms('2026-11-22T09:00:00Z'), position: 10n, status: 'down' as const },
      { at: ms('2026-11-22T09:45:00Z'), position: 20n, status: 'up' as const },
    ];
    const plan = when(
      {
        states: { acme: aPage() },
        heads: { 1: head },
        spans: { 1: { recent: downRecent, failures: [failure] } },
      },
      [aCheck('2026-11-22T09:10:00Z', 'up')],
    );
    expect(writesTo(plan.writes, `${mon}:down`)).toEqual([
      { op: 'zremFrom', key: `${mon}:down`, min: failure.start },
      {
        op: 'zadd',
        key: `${mon}:down`,
        score: failure.start,
        member: `${failure.start}:${ms('2026-11-22T09:10:00Z')}`,
      },
      ...summarised('2026-11-22T10:00:00Z'),
    ]);
  });

  it('given no recent check before it, when a check older than the first one kept arrives, then buckets only', () => {
    const plan = when(
      { states: { acme: aPage() }, heads: { 1: head }, spans: { 1: { recent: [], failures: [] } } },
      [aCheck('2026-11-22T08:30:00Z', 'down')],
    );
    expect(writesTo(plan.writes, `${mon}:down`)).toEqual([]);
    expect(writesTo(plan.writes, `${mon}:tl`)).toEqual([]);
    const slot = Math.floor(ms('2026-11-22T08:30:00Z') / 1_800_000);
    expect(writesTo(plan.writes, `${mon}:min30:${slot}`)).toHaveLength(4); // n, rt, d and the expiry
  });

  it('refuses to plan a late check whose span was not loaded', () => {
    expect(() =>
      when({ states: { acme: aPage() }, heads: { 1: head } }, [aCheck('2026-11-22T09:30:00Z', 'down')]),
    ).toThrow(SpanNotLoaded);
  });
});
