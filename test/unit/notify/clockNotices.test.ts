import { describe, expect, it } from 'vitest';
import { clockNotices } from '../../../projections/notify/clockNotices.ts';
import { hasSettled, monitorNotice, trackCheck } from '../../../projections/notify/monitorStates.ts';
import { foldNotifyPage } from '../../../projections/notify/notifyPage.ts';
import { projectedEvent } from '../../support/events.ts';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const m = (minutes: number) => T0 + minutes * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
let position = 0;
const ev = (type: string, atMs: number, data: Record<string, unknown>) =>
  projectedEvent({ type, page: 'acme', at: iso(atMs), position: String(++position), data });

const configured = (settings: Record<string, unknown> = {}) =>
  ev('page.configured', m(-600), {
    title: 'Acme',
    plan: 'growth',
    custom_domain: null,
    auth_token_hash: null,
    blocked: false,
    ...settings,
  });
const scheduled = ev('maintenance.scheduled', m(-300), {
  maintenance_id: 'm1',
  title: 'Upgrade',
  description: '',
  scheduled_start: iso(m(0)),
  scheduled_end: iso(m(90)),
  components: ['DB'],
});

const at = (minutes: number, events = [configured(), scheduled]) =>
  clockNotices('acme', foldNotifyPage(events), m(minutes)).map(({ notice, moment }) => [
    notice.source,
    notice.type,
    notice.maintenance?.status,
    moment,
  ]);

describe('clockNotices', () => {
  it('reminds 60 minutes before the start, starts and completes by the clock, each news for 15 minutes', () => {
    expect(at(-61)).toEqual([]);
    expect(at(-60)).toEqual([
      ['maintenance.reminder:acme:m1:' + String(m(0)), 'maintenance.reminder', 'scheduled', m(-60)],
    ]);
    expect(at(-44)).toEqual([]);
    expect(at(5)).toEqual([['maintenance.started:acme:m1', 'maintenance.started', 'in_progress', m(0)]]);
    expect(at(16)).toEqual([]);
    expect(at(91)).toEqual([['maintenance.completed:acme:m1', 'maintenance.completed', 'completed', m(90)]]);
  });

  it('follows the page setting, with 0 meaning no reminder', () => {
    expect(at(-10, [configured({ maintenance_reminder_minutes: 10 }), scheduled])[0]?.[1]).toBe(
      'maintenance.reminder',
    );
    expect(at(-60, [configured({ maintenance_reminder_minutes: 0 }), scheduled])).toEqual([]);
  });

  it('sends nothing for a cancelled maintenance, and an explicit start counts from its own time', () => {
    expect(
      at(5, [configured(), scheduled, ev('maintenance.cancelled', m(-1), { maintenance_id: 'm1' })]),
    ).toEqual([]);
    const started = ev('maintenance.started', m(-20), { maintenance_id: 'm1' });
    expect(at(-10, [configured(), scheduled, started])).toEqual([
      ['maintenance.started:acme:m1', 'maintenance.started', 'in_progress', m(-20)],
    ]);
  });
});

describe('monitor states', () => {
  const monitor = { id: 7, name: 'API', type: 'http', impact: 'partial' as const, position: null };

  it('notifies a state once it has held for the hold, and nothing for a flap back', () => {
    let tracked = trackCheck(null, 'up', m(0));
    expect(hasSettled(tracked, 60_000, m(10))).toBe(false);
    tracked = trackCheck(tracked, 'down', m(1));
    expect(hasSettled(tracked, 60_000, m(1) + 59_000)).toBe(false);
    expect(hasSettled(tracked, 60_000, m(2))).toBe(true);
    tracked = trackCheck(tracked, 'up', m(1) + 30_000);
    expect(hasSettled(tracked, 60_000, m(5))).toBe(false);
    expect(monitorNotice('acme', monitor, trackCheck(tracked, 'degraded', m(6)))).toEqual({
      source: `monitor.state:acme:7:${String(m(6))}`,
      thread: `monitor.state:acme:7:${String(m(6))}`,
      coalesces: false,
      type: 'monitor.state',
      atMs: m(6),
      components: ['API'],
      monitor: { id: '7', name: 'API', state: 'degraded', since: '2026-11-22T10:06:00Z' },
    });
  });
});
