import { describe, expect, it } from 'vitest';
import { foldPageState } from '../../projections/pageState/foldPageState.ts';
import { evolvePageState } from '../../projections/pageState/pageState.ts';
import type { PageState } from '../../projections/types.ts';
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { projectedEvent } from '../support/events.ts';

let position = 0;
const ev = (type: string, minute: number, data: Record<string, unknown> = {}): ProjectedEvent =>
  projectedEvent({
    type,
    page: 'acme',
    at: new Date(Date.UTC(2026, 10, 1) + minute * 60_000).toISOString(),
    position: String(++position),
    data,
  });
const configured = (minute: number, title: string) =>
  ev('page.configured', minute, {
    title,
    plan: 'growth',
    custom_domain: null,
    auth_token_hash: null,
    blocked: false,
  });

/** A history with every kind of page change, entries set again, removed, and the page deleted and made again. */
const history = (): ProjectedEvent[] => {
  const events = [configured(0, 'Acme')];
  for (let n = 1; n <= 3; n++)
    events.push(ev('monitor.configured', n, { monitor_id: n, name: `M${String(n)}` }));
  for (let n = 0; n < 40; n++) {
    const id = `inc-${String(n % 15)}`;
    events.push(
      n < 15
        ? ev('incident.opened', 10 + n, {
            incident_id: id,
            title: `T${String(n)}`,
            message: 'm',
            components: ['M1'],
          })
        : ev('incident.updated', 10 + n, {
            incident_id: id,
            state: n % 2 ? 'resolved' : 'identified',
            message: 'u',
          }),
    );
    if (n % 4 === 0)
      events.push(
        ev('maintenance.scheduled', 60 + n, {
          maintenance_id: `mnt-${String(n)}`,
          title: 'Upgrade',
          scheduled_start: '2026-12-01T10:00:00Z',
          scheduled_end: '2026-12-01T11:00:00Z',
        }),
      );
    if (n % 8 === 0)
      events.push(ev('maintenance.updated', 61 + n, { maintenance_id: `mnt-${String(n)}`, title: 'Moved' }));
  }
  events.push(ev('monitor.removed', 200, { monitor_id: 2 }));
  events.push(ev('monitor.configured', 201, { monitor_id: 1, name: 'Renamed' }));
  events.push(ev('page.deleted', 202));
  events.push(configured(203, 'Acme again'));
  events.push(ev('incident.opened', 204, { incident_id: 'after', title: 'Again', message: 'm' }));
  events.push(ev('monitor.configured', 205, { monitor_id: 9, name: 'New' }));
  return events;
};

const oneByOne = (events: readonly ProjectedEvent[], from: PageState | null) =>
  events.reduce<PageState | null>(evolvePageState, from);

describe('foldPageState', () => {
  it('gives what evolving one event at a time gives, at every prefix of a history', () => {
    const events = history();
    for (let end = 0; end <= events.length; end++)
      expect(foldPageState(events.slice(0, end), null)).toEqual(oneByOne(events.slice(0, end), null));
  });

  it('keeps the order of entries that one-at-a-time evolving gives', () => {
    const events = history().slice(0, 60);
    const folded = foldPageState(events, null);
    const evolved = oneByOne(events, null);
    expect(Object.keys(folded?.incidents ?? {})).toEqual(Object.keys(evolved?.incidents ?? {}));
    expect(Object.keys(folded?.maintenances ?? {})).toEqual(Object.keys(evolved?.maintenances ?? {}));
  });

  it('never changes the state it starts from', () => {
    const events = history();
    const from = oneByOne(events.slice(0, 30), null);
    const before = JSON.stringify(from);
    const folded = foldPageState(events.slice(30), from);
    expect(JSON.stringify(from)).toBe(before);
    expect(folded).toEqual(oneByOne(events.slice(30), from));
  });
});
