import { describe, expect, it } from 'vitest';
import { downMs, failuresOverlapping } from '../../projections/figures/downtime.ts';
import { ms } from './monitorSnapshot.ts';

const T = (hhmm: string) => ms(`2026-11-22T${hhmm}:00Z`);
const down = [
  { start: T('10:00'), end: T('10:30') },
  { start: T('11:50'), end: T('12:10') },
];
const now = T('13:00');

describe('downMs', () => {
  it('sums the parts of closed failures inside the range', () => {
    expect(downMs({ down, openDownStart: null }, T('10:15'), T('12:00'), now)).toBe(25 * 60_000);
  });

  it('splits a failure across an hour boundary', () => {
    expect(downMs({ down, openDownStart: null }, T('11:00'), T('12:00'), now)).toBe(10 * 60_000);
    expect(downMs({ down, openDownStart: null }, T('12:00'), T('13:00'), now)).toBe(10 * 60_000);
  });

  it('runs an open failure until now and ignores the range past now', () => {
    expect(downMs({ down, openDownStart: T('12:40') }, T('12:00'), T('14:00'), now)).toBe(30 * 60_000);
  });

  it('is 0 for an empty or inverted range and without failures', () => {
    expect(downMs({ down, openDownStart: null }, T('13:30'), T('14:00'), now)).toBe(0);
    expect(downMs({ down: [], openDownStart: null }, T('00:00'), T('13:00'), now)).toBe(0);
  });
});

describe('failuresOverlapping', () => {
  it('does not count failures that only touch the range', () => {
    expect(failuresOverlapping({ down, openDownStart: null }, T('10:30'), T('11:50'), now)).toBe(0);
  });

  it('counts failures partly inside the range', () => {
    expect(failuresOverlapping({ down, openDownStart: null }, T('10:29'), T('11:51'), now)).toBe(2);
    expect(failuresOverlapping({ down, openDownStart: null }, T('00:00'), T('13:00'), now)).toBe(2);
  });

  it('counts an open failure, whose end is now', () => {
    expect(failuresOverlapping({ down, openDownStart: T('12:40') }, T('12:30'), T('13:00'), now)).toBe(1);
    expect(failuresOverlapping({ down, openDownStart: T('12:40') }, T('00:00'), T('12:40'), now)).toBe(2);
  });
});
