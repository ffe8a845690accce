// Which pages of a batch render at once while the projector catches up on a backlog
// (runPartition): those in which a monitor went down or came back, or anything but a check
// happened.
import { describe, expect, it } from 'vitest';
import { aCheck, aHead, anEvent, aPage, when } from './given.ts';

const up = {
  states: { acme: aPage() },
  heads: { 1: aHead('2026-11-22T00:00:00Z', '2026-11-22T09:59:00Z', 'up') },
};
const down = {
  states: { acme: aPage() },
  heads: { 1: aHead('2026-11-22T00:00:00Z', '2026-11-22T09:59:00Z', 'down', '2026-11-22T09:30:00Z') },
};

describe('planBatch: pages to render at once', () => {
  it('names none for checks that leave every monitor as it was', () => {
    expect(
      when(up, [aCheck('2026-11-22T10:00:00Z', 'up'), aCheck('2026-11-22T10:01:00Z', 'up')]).urgent,
    ).toEqual(new Set());
    expect(when(down, [aCheck('2026-11-22T10:00:00Z', 'down')]).urgent).toEqual(new Set());
  });

  it('names the page of a monitor that goes down, or comes back', () => {
    expect(when(up, [aCheck('2026-11-22T10:00:00Z', 'down')]).urgent).toEqual(new Set(['acme']));
    expect(when(down, [aCheck('2026-11-22T10:00:00Z', 'up')]).urgent).toEqual(new Set(['acme']));
  });

  it('names the page of an incident, whatever the checks', () => {
    const incident = anEvent('incident.opened', '2026-11-22T10:00:00Z', {
      incident_id: 'i1',
      title: 'Down',
      message: 'Looking',
      components: [],
    });
    expect(when(up, [aCheck('2026-11-22T10:00:00Z', 'up'), incident]).urgent).toEqual(new Set(['acme']));
  });
});
