import { describe, expect, it } from 'vitest';
import { messageIdOf } from '../../../projections/notify/messageId.ts';
import { planLogBatch, type NotifyEvent } from '../../../projections/notify/planLogBatch.ts';
import { EMPTY_NOTIFY_PAGE, foldNotifyPage } from '../../../projections/notify/notifyPage.ts';
import type { PlannedSubscriber, ThreadHead } from '../../../projections/notify/planTypes.ts';
import { headKey } from '../../../projections/notify/planNotices.ts';
import { projectedEvent } from '../../support/events.ts';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const s = (seconds: number) => T0 + seconds * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const urls = { baseUrl: 'https://status.example.com', pageUrlTemplate: '{base_url}/s/{slug}' };
const page = { slug: 'acme', title: 'Acme', url: 'https://status.example.com/s/acme' };

let position = 100;
const at = (type: string, atMs: number, data: Record<string, unknown>, recordedAt = atMs): NotifyEvent => ({
  event: projectedEvent({ type, page: 'acme', at: iso(atMs), position: String(++position), data }),
  recordedAt,
});

const configured = at('page.configured', s(-3600), {
  title: 'Acme',
  plan: 'growth',
  custom_domain: null,
  auth_token_hash: null,
  blocked: false,
});
const before = foldNotifyPage([configured.event]);

const subscriber = (id: string, extra: Partial<PlannedSubscriber> = {}): PlannedSubscriber => ({
  id,
  channel: 'webhook',
  components: [],
  monitorStates: false,
  confirmedAt: s(-600),
  ...extra,
});

const plan = (
  events: NotifyEvent[],
  subscribers: PlannedSubscriber[],
  heads: ReadonlyMap<string, ThreadHead> = new Map(),
) =>
  planLogBatch({
    events,
    pages: new Map([['acme', before]]),
    subscribers: new Map([['acme', subscribers]]),
    heads,
    monitors: new Map(),
    urls,
    coalesceMs: 30_000,
  });

const opened = (atMs: number, recordedAt = atMs, extra: Record<string, unknown> = {}) =>
  at(
    'incident.opened',
    atMs,
    { incident_id: 'inc-1', title: 'API down', message: 'Looking', components: ['API'], ...extra },
    recordedAt,
  );
const updated = (atMs: number, state: string, message: string) =>
  at('incident.updated', atMs, { incident_id: 'inc-1', state, message });

describe('planLogBatch: what notifies', () => {
  it('plans one pending row per subscriber for an opened incident, due at its append, with the read API object', () => {
    const event = opened(s(0));
    const { rows } = plan([event], [subscriber('sub_a')]);
    const source = `log:${event.event.position}`;
    const id = messageIdOf(source, 'sub_a');
    expect(rows).toEqual([
      {
        source,
        subscriberId: 'sub_a',
        messageId: id,
        page: 'acme',
        thread: 'incident:acme:inc-1',
        dueAt: s(0),
        state: 'pending',
        payload: {
          id,
          type: 'incident.opened',
          timestamp: '2026-11-22T10:00:00Z',
          page,
          incident: {
            id: 'inc-1',
            title: 'API down',
            state: 'investigating',
            started_at: '2026-11-22T10:00:00Z',
            components: ['API'],
            updates: [{ status: 'investigating', message: 'Looking', created_at: '2026-11-22T10:00:00Z' }],
          },
        },
      },
    ]);
  });

  it('sends nothing for an event appended more than 15 minutes after its time, or with notify false', () => {
    expect(plan([opened(s(0), s(15 * 60 + 1))], [subscriber('sub_a')]).rows).toEqual([]);
    expect(plan([opened(s(0), s(0), { notify: false })], [subscriber('sub_a')]).rows).toEqual([]);
    expect(plan([opened(s(0), s(15 * 60))], [subscriber('sub_a')]).rows).toHaveLength(1);
  });

  it('reaches only subscribers confirmed before the append and in scope', () => {
    const { rows } = plan(
      [opened(s(0))],
      [
        subscriber('sub_late', { confirmedAt: s(0) }),
        subscriber('sub_db', { components: ['DB'] }),
        subscriber('sub_api', { components: ['API', 'DB'] }),
      ],
    );
    expect(rows.map((r) => r.subscriberId)).toEqual(['sub_api']);
  });

  it('announces a scheduled maintenance, a moved window and a cancellation, not an edit of the text', () => {
    const window = { scheduled_start: iso(s(7200)), scheduled_end: iso(s(10800)) };
    const events = [
      at('maintenance.scheduled', s(0), { maintenance_id: 'm1', title: 'Upgrade', ...window }),
      at('maintenance.updated', s(10), { maintenance_id: 'm1', description: 'More words' }),
      at('maintenance.updated', s(20), { maintenance_id: 'm1', scheduled_end: iso(s(14400)) }),
      at('maintenance.cancelled', s(30), { maintenance_id: 'm1' }),
    ];
    const { rows } = plan(events, [subscriber('sub_a')]);
    expect(
      rows.map((r) => [r.payload.type, r.payload.maintenance?.status, r.payload.maintenance?.scheduled_end]),
    ).toEqual([
      ['maintenance.scheduled', 'scheduled', '2026-11-22T13:00:00Z'],
      ['maintenance.rescheduled', 'scheduled', '2026-11-22T14:00:00Z'],
      ['maintenance.cancelled', 'cancelled', '2026-11-22T14:00:00Z'],
    ]);
  });

  it('names an explicit start by the maintenance, so the clock finds it planned', () => {
    const window = { scheduled_start: iso(s(600)), scheduled_end: iso(s(3600)) };
    const { rows } = plan(
      [
        at('maintenance.scheduled', s(0), { maintenance_id: 'm1', title: 'Upgrade', ...window }),
        at('maintenance.started', s(300), { maintenance_id: 'm1' }),
        at('maintenance.started', s(310), { maintenance_id: 'm1' }),
      ],
      [subscriber('sub_a')],
    );
    expect(rows.map((r) => [r.source, r.payload.maintenance?.status])).toEqual([
      [expect.stringMatching(/^log:/), 'scheduled'],
      ['maintenance.started:acme:m1', 'in_progress'],
    ]);
  });

  it("carries the page's language with the message when it has one (mails speak it)", () => {
    const german = at('page.configured', s(-60), { ...configured.event.data, locale: 'de' });
    const { rows } = plan([german, opened(s(0))], [subscriber('sub_a')]);
    expect(rows.map((row) => row.payload.page)).toEqual([{ ...page, locale: 'de' }]);
    expect(plan([opened(s(0))], [subscriber('sub_a')]).rows.map((row) => row.payload.page)).toEqual([page]);
  });
});

describe('planLogBatch: storms', () => {
  it('sends the first update at once and folds later ones within 30 s into one message due when they end', () => {
    const events = [
      opened(s(0)),
      updated(s(5), 'identified', 'Found it'),
      updated(s(12), 'monitoring', 'Fixed'),
    ];
    const { rows } = plan(events, [subscriber('sub_a')]);
    const [first, second, third] = rows;
    expect(rows.map((r) => [r.state, r.dueAt, r.foldInto])).toEqual([
      ['pending', s(0), undefined],
      ['coalesced', s(5), undefined],
      ['coalesced', s(12), undefined],
    ]);
    // Unclaimed, the first message carries all three when it goes.
    expect(first?.payload).toMatchObject({ id: first?.messageId, type: 'incident.opened', coalesced: 3 });
    expect(first?.payload.incident?.state).toBe('monitoring');
    expect(second?.payload.id).toBe(first?.messageId);
    expect(third?.payload.incident?.updates).toHaveLength(3);
  });

  it('after a message that went, opens one message due 30 s after it, and folds the next into it', () => {
    const heads = new Map<string, ThreadHead>([
      [
        headKey('sub_a', 'incident:acme:inc-1'),
        {
          source: 'log:1',
          messageId: 'msg_sent',
          dueAt: s(0),
          type: 'incident.opened',
          open: false,
          carries: 1,
        },
      ],
    ]);
    const pages = foldNotifyPage([opened(s(0)).event], before);
    const { rows } = planLogBatch({
      events: [
        updated(s(5), 'identified', 'Found it'),
        updated(s(20), 'monitoring', 'Fixed'),
        updated(s(61), 'resolved', 'Done'),
      ],
      pages: new Map([['acme', pages]]),
      subscribers: new Map([['acme', [subscriber('sub_a')]]]),
      heads,
      monitors: new Map(),
      urls,
      coalesceMs: 30_000,
    });
    expect(rows.map((r) => [r.state, r.dueAt, r.payload.coalesced, r.payload.incident?.state])).toEqual([
      ['pending', s(30), 2, 'monitoring'],
      ['coalesced', s(20), 2, 'monitoring'],
      ['pending', s(61), undefined, 'resolved'],
    ]);
  });

  it('folds into an open message of an earlier batch through foldInto', () => {
    const heads = new Map<string, ThreadHead>([
      [
        headKey('sub_a', 'incident:acme:inc-1'),
        {
          source: 'log:1',
          messageId: 'msg_open',
          dueAt: s(30),
          type: 'incident.updated',
          open: true,
          carries: 2,
        },
      ],
    ]);
    const pages = foldNotifyPage([opened(s(0)).event], before);
    const { rows } = planLogBatch({
      events: [updated(s(25), 'resolved', 'Done')],
      pages: new Map([['acme', pages]]),
      subscribers: new Map([['acme', [subscriber('sub_a')]]]),
      heads,
      monitors: new Map(),
      urls,
      coalesceMs: 30_000,
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'coalesced', foldInto: 'msg_open', dueAt: s(25) });
    expect(rows[0]?.payload).toMatchObject({ id: 'msg_open', type: 'incident.updated', coalesced: 3 });
  });
});

describe('planLogBatch: monitors', () => {
  it('tracks the states of checks that are news, restarting `since` on a change', () => {
    const check = (atMs: number, status: string, recordedAt = atMs) =>
      at('check.recorded', atMs, { monitor_id: 7, status, response_time_ms: 10 }, recordedAt);
    const { rows, monitors } = planLogBatch({
      events: [check(s(0), 'up'), check(s(10), 'down'), check(s(20), 'down'), check(s(-9999), 'up', s(30))],
      pages: new Map([['acme', EMPTY_NOTIFY_PAGE]]),
      subscribers: new Map(),
      heads: new Map(),
      monitors: new Map(),
      urls,
      coalesceMs: 30_000,
    });
    expect(rows).toEqual([]);
    expect([...monitors.values()]).toEqual([
      { state: 'down', since: s(10), lastAt: s(20), notifiedState: null },
    ]);
  });
});
