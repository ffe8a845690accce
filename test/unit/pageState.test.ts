import { describe, expect, it } from 'vitest';
import { evolvePageState, touchUpdatedAt } from '../../projections/pageState/pageState.ts';
import type { PageState } from '../../projections/types.ts';
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { projectedEvent } from '../support/events.ts';
import { ms } from './monitorSnapshot.ts';

let position = 0;
const ev = (type: string, at: string, data: Record<string, unknown> = {}): ProjectedEvent =>
  projectedEvent({ type, page: 'acme', at, position: String(++position), data });

const configured = (at: string, title = 'Acme') =>
  ev('page.configured', at, {
    title,
    plan: 'growth',
    custom_domain: null,
    auth_token_hash: null,
    blocked: false,
  });
const replay = (events: ProjectedEvent[]) => events.reduce<PageState | null>(evolvePageState, null);

describe('evolvePageState: page and monitors', () => {
  it('creates the page on page.configured and replaces its settings later', () => {
    const state = replay([
      configured('2026-11-22T10:00:00Z'),
      configured('2026-11-22T11:00:00Z', 'Acme Inc'),
    ]);
    expect(state).toEqual({
      settings: {
        slug: 'acme',
        title: 'Acme Inc',
        plan: 'growth',
        customDomain: null,
        tokenHash: null,
        blocked: false,
        configuredAt: ms('2026-11-22T11:00:00Z'),
      },
      deleted: false,
      updatedAt: ms('2026-11-22T11:00:00Z'),
      monitors: {},
      incidents: {},
      maintenances: {},
    });
  });

  it('ignores events of a page it has no state for', () => {
    expect(evolvePageState(null, ev('page.deleted', '2026-11-22T10:00:00Z'))).toBeNull();
  });

  it('keeps monitors by id; removal drops them', () => {
    const state = replay([
      configured('2026-11-22T10:00:00Z'),
      ev('monitor.configured', '2026-11-22T10:01:00Z', { monitor_id: 1, name: 'API' }),
      ev('monitor.configured', '2026-11-22T10:02:00Z', {
        monitor_id: 2,
        name: 'DNS',
        type: 'dns',
        impact: 'major',
        position: 3,
      }),
      ev('monitor.removed', '2026-11-22T10:03:00Z', { monitor_id: 1 }),
    ]);
    expect(state?.monitors).toEqual({
      '2': { id: 2, name: 'DNS', type: 'dns', impact: 'major', position: 3 },
    });
    expect(state?.updatedAt).toBe(ms('2026-11-22T10:03:00Z'));
  });

  it('advances updatedAt on checks, never backwards', () => {
    const base = replay([
      configured('2026-11-22T10:00:00Z'),
      ev('monitor.configured', '2026-11-22T10:00:00Z', { monitor_id: 1, name: 'API' }),
    ]);
    const check = (at: string) =>
      ev('check.recorded', at, { monitor_id: 1, status: 'up', response_time_ms: 5 });
    const later = evolvePageState(base, check('2026-11-22T10:05:00Z'));
    expect(later?.updatedAt).toBe(ms('2026-11-22T10:05:00Z'));
    expect(evolvePageState(later, check('2026-11-22T10:01:00Z'))?.updatedAt).toBe(ms('2026-11-22T10:05:00Z'));
    expect(touchUpdatedAt(later, ms('2026-11-22T10:04:00Z'))).toBe(later);
    expect(touchUpdatedAt(later, ms('2026-11-22T10:06:00Z'))?.updatedAt).toBe(ms('2026-11-22T10:06:00Z'));
    expect(touchUpdatedAt(null, 1)).toBeNull();
  });

  it('wipes a deleted page, ignores its events, and page.configured brings it back empty', () => {
    const deleted = replay([
      configured('2026-11-22T10:00:00Z'),
      ev('monitor.configured', '2026-11-22T10:01:00Z', { monitor_id: 1, name: 'API' }),
      ev('incident.opened', '2026-11-22T10:02:00Z', { incident_id: 'i1', title: 'Down', message: 'x' }),
      ev('maintenance.scheduled', '2026-11-22T10:03:00Z', {
        maintenance_id: 'm1',
        title: 'Upgrade',
        scheduled_start: '2026-11-23T10:00:00Z',
        scheduled_end: '2026-11-23T11:00:00Z',
      }),
      ev('page.deleted', '2026-11-22T10:04:00Z'),
    ]);
    expect(deleted).toMatchObject({ deleted: true, monitors: {}, incidents: {}, maintenances: {} });
    const ignored = ev('monitor.configured', '2026-11-22T10:05:00Z', { monitor_id: 1, name: 'API' });
    expect(evolvePageState(deleted, ignored)).toBe(deleted);
    expect(touchUpdatedAt(deleted, ms('2026-11-22T10:06:00Z'))).toBe(deleted);
    const back = evolvePageState(deleted, configured('2026-11-22T10:07:00Z'));
    expect(back).toMatchObject({ deleted: false, monitors: {}, updatedAt: ms('2026-11-22T10:07:00Z') });
  });
});

describe('evolvePageState: incidents', () => {
  const opened = [
    configured('2026-11-22T09:00:00Z'),
    ev('incident.opened', '2026-11-22T10:00:00Z', {
      incident_id: 'i1',
      title: 'API down',
      message: 'Looking',
      components: ['API'],
    }),
  ];

  it('opens an incident with its first update', () => {
    expect(replay(opened)?.incidents['i1']).toEqual({
      id: 'i1',
      title: 'API down',
      state: 'investigating',
      startedAt: ms('2026-11-22T10:00:00Z'),
      resolvedAt: null,
      components: ['API'],
      updates: [{ status: 'investigating', message: 'Looking', createdAt: ms('2026-11-22T10:00:00Z') }],
    });
  });

  it('resolves, and a later non-resolved update reopens (clears resolvedAt)', () => {
    const resolved = replay([
      ...opened,
      ev('incident.updated', '2026-11-22T11:00:00Z', {
        incident_id: 'i1',
        state: 'resolved',
        message: 'Fixed',
      }),
    ]);
    expect(resolved?.incidents['i1']).toMatchObject({
      state: 'resolved',
      resolvedAt: ms('2026-11-22T11:00:00Z'),
    });
    const reopened = evolvePageState(
      resolved,
      ev('incident.updated', '2026-11-22T12:00:00Z', {
        incident_id: 'i1',
        state: 'identified',
        message: 'Again',
      }),
    );
    expect(reopened?.incidents['i1']).toMatchObject({ state: 'identified', resolvedAt: null });
  });

  it('keeps updates ordered by time when they arrive out of order; state is the latest one', () => {
    const state = replay([
      ...opened,
      ev('incident.updated', '2026-11-22T12:00:00Z', {
        incident_id: 'i1',
        state: 'resolved',
        message: 'Fixed',
      }),
      ev('incident.updated', '2026-11-22T11:00:00Z', {
        incident_id: 'i1',
        state: 'identified',
        message: 'Found',
      }),
      ev('incident.updated', '2026-11-22T11:00:00Z', {
        incident_id: 'i1',
        state: 'monitoring',
        message: 'Same time',
      }),
    ]);
    const doc = state?.incidents['i1'];
    expect(doc?.updates.map((u) => u.message)).toEqual(['Looking', 'Found', 'Same time', 'Fixed']);
    expect(doc).toMatchObject({ state: 'resolved', resolvedAt: ms('2026-11-22T12:00:00Z') });
    expect(state?.updatedAt).toBe(ms('2026-11-22T12:00:00Z'));
  });

  it('replaces title and components when an update carries them', () => {
    const state = replay([
      ...opened,
      ev('incident.updated', '2026-11-22T11:00:00Z', {
        incident_id: 'i1',
        state: 'identified',
        message: 'DB',
        title: 'Database down',
        components: ['API', 'DB'],
      }),
    ]);
    expect(state?.incidents['i1']).toMatchObject({ title: 'Database down', components: ['API', 'DB'] });
  });

  it('ignores an update of an unknown incident', () => {
    const state = replay(opened);
    const next = evolvePageState(
      state,
      ev('incident.updated', '2026-11-22T11:00:00Z', {
        incident_id: 'nope',
        state: 'resolved',
        message: 'x',
      }),
    );
    expect(next?.incidents).toBe(state?.incidents);
  });
});

describe('evolvePageState: maintenances', () => {
  it('schedules, edits and records explicit transitions as flags', () => {
    const state = replay([
      configured('2026-11-22T09:00:00Z'),
      ev('maintenance.scheduled', '2026-11-22T09:30:00Z', {
        maintenance_id: 'm1',
        title: 'Upgrade',
        scheduled_start: '2026-11-23T10:00:00+01:00',
        scheduled_end: '2026-11-23T11:00:00Z',
      }),
      ev('maintenance.updated', '2026-11-22T09:40:00Z', {
        maintenance_id: 'm1',
        description: 'DB upgrade',
        components: ['DB'],
      }),
      ev('maintenance.started', '2026-11-22T09:50:00Z', { maintenance_id: 'm1' }),
      ev('maintenance.cancelled', '2026-11-22T09:55:00Z', { maintenance_id: 'm1' }),
    ]);
    expect(state?.maintenances['m1']).toEqual({
      id: 'm1',
      title: 'Upgrade',
      description: 'DB upgrade',
      scheduledStart: ms('2026-11-23T09:00:00Z'),
      scheduledEnd: ms('2026-11-23T11:00:00Z'),
      components: ['DB'],
      createdAt: ms('2026-11-22T09:30:00Z'),
      updatedAt: ms('2026-11-22T09:55:00Z'), // the cancellation, its latest event
      started: true,
      completed: false,
      cancelled: true,
      startedAt: ms('2026-11-22T09:50:00Z'), // SLA reports: the first of each transition
      cancelledAt: ms('2026-11-22T09:55:00Z'),
    });
  });
});
