// replayTimeline: failures are maximal runs of down checks, replayed from an anchor.
import { describe, expect, it } from 'vitest';
import { compareChecks, replayTimeline, type TimedCheck } from '../../projections/timeline/timeline.ts';

let position = 0n;
const c = (at: number, status: TimedCheck['status']): TimedCheck => ({ at, position: ++position, status });

describe('replayTimeline', () => {
  it('closes a failure at the first check that is not down; degraded is not downtime', () => {
    const checks = [c(0, 'up'), c(10, 'down'), c(20, 'down'), c(30, 'degraded'), c(40, 'down')];
    const result = replayTimeline(null, checks);
    expect(result.closed).toEqual([{ start: 10, end: 30 }]);
    expect(result.openDownStart).toBe(40);
    expect(result.last).toEqual(checks[4]);
  });

  it('continues the anchor failure from its start, not from the anchor check', () => {
    const anchor = { at: 50, position: 1n, status: 'down' as const, downStart: 5 };
    expect(replayTimeline(anchor, [c(60, 'down'), c(70, 'up')]).closed).toEqual([{ start: 5, end: 70 }]);
  });

  it('takes a down anchor without a known start as starting at the anchor', () => {
    const anchor = { at: 50, position: 1n, status: 'down' as const, downStart: null };
    const result = replayTimeline(anchor, []);
    expect(result).toEqual({ closed: [], openDownStart: 50, last: { at: 50, position: 1n, status: 'down' } });
  });

  it('records no empty failure when down and up share an instant', () => {
    expect(replayTimeline(null, [c(10, 'down'), c(10, 'up')].sort(compareChecks)).closed).toEqual([]);
  });

  it('needs an anchor or a check', () => {
    expect(() => replayTimeline(null, [])).toThrow();
  });
});
