// The notifier plans a page's subscribers a chunk at a time (2,000 in production): the chunks'
// rows must be exactly the rows of planning every subscriber at once, each subscriber's in order.
import { describe, expect, it } from 'vitest';
import { planChunk } from '../../../projections/notify/planChunk.ts';
import { logBatchNotices, planLogBatch, type NotifyEvent } from '../../../projections/notify/planLogBatch.ts';
import { foldNotifyPage } from '../../../projections/notify/notifyPage.ts';
import { headKey } from '../../../projections/notify/planNotices.ts';
import type {
  PlannedNotification,
  PlannedSubscriber,
  ThreadHead,
} from '../../../projections/notify/planTypes.ts';
import { projectedEvent } from '../../support/events.ts';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const s = (seconds: number) => T0 + seconds * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const urls = { baseUrl: 'https://status.example.com', pageUrlTemplate: '{base_url}/s/{slug}' };

let position = 100;
const at = (page: string, type: string, atMs: number, data: Record<string, unknown>): NotifyEvent => ({
  event: projectedEvent({ type, page, at: iso(atMs), position: String(++position), data }),
  recordedAt: atMs,
});
const configured = (page: string) =>
  at(page, 'page.configured', s(-3600), {
    title: page,
    plan: 'growth',
    custom_domain: null,
    auth_token_hash: null,
    blocked: false,
  });
const opened = (page: string, id: string, atMs: number) =>
  at(page, 'incident.opened', atMs, {
    incident_id: id,
    title: 'Down',
    message: 'Looking',
    components: ['API'],
  });
const updated = (page: string, id: string, atMs: number, state: string) =>
  at(page, 'incident.updated', atMs, { incident_id: id, state, message: state });

// Before the batch: acme has an incident opened 20 s earlier, whose messages the heads describe.
const pages = new Map([
  ['acme', foldNotifyPage([configured('acme').event, opened('acme', 'inc-0', s(-20)).event])],
  ['beta', foldNotifyPage([configured('beta').event])],
]);
const events: NotifyEvent[] = [
  updated('acme', 'inc-0', s(0), 'identified'),
  opened('acme', 'inc-1', s(1)),
  at('acme', 'maintenance.scheduled', s(2), {
    maintenance_id: 'm1',
    title: 'Upgrade',
    scheduled_start: iso(s(7200)),
    scheduled_end: iso(s(10800)),
  }),
  opened('beta', 'inc-9', s(3)),
  updated('beta', 'inc-9', s(4), 'identified'),
  updated('acme', 'inc-1', s(5), 'identified'),
  updated('acme', 'inc-1', s(12), 'monitoring'),
  updated('acme', 'inc-1', s(50), 'resolved'),
];

const subscriber = (id: string, extra: Partial<PlannedSubscriber> = {}): PlannedSubscriber => ({
  id,
  channel: 'webhook',
  components: [],
  monitorStates: false,
  confirmedAt: s(-600),
  ...extra,
});
const subscribers = new Map<string, PlannedSubscriber[]>([
  [
    'acme',
    [
      subscriber('a1'),
      subscriber('a2', { components: ['DB'] }),
      subscriber('a3', { confirmedAt: s(3) }),
      subscriber('a4', { channel: 'email' }),
      subscriber('a5'),
    ],
  ],
  ['beta', [subscriber('b1'), subscriber('b2', { channel: 'email' })]],
]);
const head = (messageId: string, open: boolean): ThreadHead => ({
  source: 'log:50',
  messageId,
  dueAt: s(-20),
  type: 'incident.opened',
  open,
  carries: 1,
});
// a4's first message is still unsent (the update folds into it), a5's went (the update waits).
const heads = new Map([
  [headKey('a4', 'incident:acme:inc-0'), head('msg_a4_open', true)],
  [headKey('a5', 'incident:acme:inc-0'), head('msg_a5_sent', false)],
]);

/** Each subscriber's rows in their order, subscribers by id: chunking may interleave them differently. */
const bySubscriber = (rows: readonly PlannedNotification[]) =>
  [...rows].sort((a, b) => (a.subscriberId < b.subscriberId ? -1 : a.subscriberId > b.subscriberId ? 1 : 0));

const chunked = (size: number): PlannedNotification[] => {
  const { notices } = logBatchNotices({ events, pages, monitors: new Map(), urls });
  const all = [...subscribers].flatMap(([page, list]) => list.map((one) => ({ page, one })));
  const rows: PlannedNotification[] = [];
  for (let start = 0; start < all.length; start += size) {
    const chunk = all.slice(start, start + size);
    const byPage = new Map<string, PlannedSubscriber[]>();
    for (const { page, one } of chunk) byPage.set(page, [...(byPage.get(page) ?? []), one]);
    const ids = new Set(chunk.map(({ one }) => one.id));
    const chunkHeads = new Map([...heads].filter(([key]) => ids.has(key.split('\u0000')[0] ?? '')));
    rows.push(...planChunk(notices, byPage, chunkHeads, 30_000));
  }
  return rows;
};

describe('planChunk', () => {
  const whole = planLogBatch({
    events,
    pages,
    subscribers,
    heads,
    monitors: new Map(),
    urls,
    coalesceMs: 30_000,
  });

  it('plans the mixed batch as expected when every subscriber is planned at once', () => {
    expect(
      bySubscriber(whole.rows).map((row) => [
        row.subscriberId,
        row.payload.type,
        row.state,
        row.dueAt - T0,
        row.foldInto ?? null,
        row.payload.coalesced ?? null,
      ]),
    ).toEqual([
      // a1: no head of inc-0 yet, so its update goes at once; inc-1 gathers two updates, then one after 30 s.
      ['a1', 'incident.updated', 'pending', 0, null, null],
      ['a1', 'incident.opened', 'pending', 1000, null, 3],
      ['a1', 'maintenance.scheduled', 'pending', 2000, null, null],
      ['a1', 'incident.opened', 'coalesced', 5000, null, 2],
      ['a1', 'incident.opened', 'coalesced', 12000, null, 3],
      ['a1', 'incident.updated', 'pending', 50000, null, null],
      // a2 follows DB only: the maintenance (all components) reaches it, the API incidents do not.
      ['a2', 'maintenance.scheduled', 'pending', 2000, null, null],
      // a3 confirmed at 3 s: only what was appended after.
      ['a3', 'incident.updated', 'pending', 5000, null, 2],
      ['a3', 'incident.updated', 'coalesced', 12000, null, 2],
      ['a3', 'incident.updated', 'pending', 50000, null, null],
      // a4: the update of inc-0 folds into its unsent message of an earlier batch.
      ['a4', 'incident.opened', 'coalesced', 0, 'msg_a4_open', 2],
      ['a4', 'incident.opened', 'pending', 1000, null, 3],
      ['a4', 'maintenance.scheduled', 'pending', 2000, null, null],
      ['a4', 'incident.opened', 'coalesced', 5000, null, 2],
      ['a4', 'incident.opened', 'coalesced', 12000, null, 3],
      ['a4', 'incident.updated', 'pending', 50000, null, null],
      // a5: its message of inc-0 went at -20 s, so the update waits until 30 s after it.
      ['a5', 'incident.updated', 'pending', 10000, null, null],
      ['a5', 'incident.opened', 'pending', 1000, null, 3],
      ['a5', 'maintenance.scheduled', 'pending', 2000, null, null],
      ['a5', 'incident.opened', 'coalesced', 5000, null, 2],
      ['a5', 'incident.opened', 'coalesced', 12000, null, 3],
      ['a5', 'incident.updated', 'pending', 50000, null, null],
      ['b1', 'incident.opened', 'pending', 3000, null, 2],
      ['b1', 'incident.opened', 'coalesced', 4000, null, 2],
      ['b2', 'incident.opened', 'pending', 3000, null, 2],
      ['b2', 'incident.opened', 'coalesced', 4000, null, 2],
    ]);
  });

  it.each([1, 2, 3, 4, 6, 7])('gives exactly the same rows in chunks of %i subscribers', (size) => {
    expect(bySubscriber(chunked(size))).toEqual(bySubscriber(whole.rows));
  });
});
