import { describe, expect, it } from 'vitest';
import { renderEmbedParts, rtmMinutes, rtmWindow, updDays } from '../../projections/embed/embed.ts';
import { embedBody } from '../../src/readModels/embed/embedBody.ts';
import type { IncidentDoc } from '../../projections/types.ts';
import { DAY_MS, MINUTE_MS } from '../../src/shared/time.ts';
import { aMonitor, ms } from './monitorSnapshot.ts';

const now = ms('2026-11-22T10:30:20Z');
const minute = ms('2026-11-22T10:30:00Z');

const incident = (
  id: string,
  startedAt: string,
  state: IncidentDoc['state'],
  components: string[],
): IncidentDoc => ({
  id,
  title: `Incident ${id}`,
  state,
  startedAt: ms(startedAt),
  resolvedAt: state === 'resolved' ? ms(startedAt) + 1000 : null,
  components,
  updates: [],
});

describe('rtmWindow', () => {
  const values = [null, null, 120, null, 80];

  it('carries the previous minute forward; leading empty minutes take the first value in the window', () => {
    expect(rtmWindow(values, 5)).toEqual([120, 120, 120, 120, 80]);
    expect(rtmWindow(values, 3)).toEqual([120, 120, 80]);
    expect(rtmWindow(values, 2)).toEqual([80, 80]);
  });

  it('is zeros without any data in the window', () => {
    expect(rtmWindow([null, null, null], 2)).toEqual([0, 0]);
    expect(rtmWindow([5, null, null], 2)).toEqual([0, 0]);
  });
});

describe('rtmMinutes', () => {
  it('is 240 minutes ending with the current one, the mean of all monitors, null when empty', () => {
    const a = aMonitor({
      minutes: new Map([
        [minute, { n: 2, rt: 200, d: 0, g: 0 }],
        [minute - 239 * MINUTE_MS, { n: 1, rt: 50, d: 0, g: 0 }],
        [minute - 240 * MINUTE_MS, { n: 1, rt: 999, d: 0, g: 0 }],
      ]),
    });
    const b = aMonitor({ id: 2, minutes: new Map([[minute, { n: 1, rt: 101, d: 1, g: 0 }]]) });
    const values = rtmMinutes([a, b], now);
    expect(values).toHaveLength(240);
    expect(values[0]).toBe(50);
    expect(values[239]).toBe(100); // 301 ÷ 3
    expect(values.slice(1, 239).every((v) => v === null)).toBe(true);
  });
});

describe('updDays', () => {
  it('is 30 days oldest first, 100 for days without data', () => {
    const today = ms('2026-11-22T00:00:00Z');
    const m = aMonitor({
      firstAt: today - 2 * DAY_MS + 12 * 3_600_000, // noon two days ago
      down: [{ start: today - 2 * DAY_MS + 21 * 3_600_000, end: today - DAY_MS }], // its last 3 h
    });
    const values = updDays([m], now);
    expect(values).toHaveLength(30);
    expect(values.slice(0, 27).every((v) => v === 100)).toBe(true);
    expect(values.slice(27)).toEqual([75, 100, 100]);
  });
});

describe('renderEmbedParts', () => {
  const base = {
    slug: 'acme',
    pageUrl: 'https://status.acme.com',
    overall: 'partial_outage' as const,
    updatedAt: ms('2026-11-22T10:00:00Z'),
    monitors: [aMonitor({ type: 'dns' })],
    incidents: [
      incident('b', '2026-11-22T09:00:00Z', 'identified', ['API', 'Web']),
      incident('c', '2026-11-22T08:00:00Z', 'resolved', []),
      incident('a', '2026-11-22T09:00:00Z', 'investigating', []),
      incident('d', '2026-11-22T10:00:00Z', 'monitoring', ['DNS']),
    ],
    nowMs: now,
  };

  it('renders JSON fragments the API joins without parsing', () => {
    const parts = renderEmbedParts(base);
    expect(parts.head).toBe('"page":"acme","page_url":"https://status.acme.com","overall":"partial_outage"');
    expect(JSON.parse(parts.incidents)).toEqual([
      {
        id: 'd',
        title: 'Incident d',
        state: 'monitoring',
        started: '2026-11-22T10:00:00Z',
        component: 'DNS',
      },
      {
        id: 'a',
        title: 'Incident a',
        state: 'investigating',
        started: '2026-11-22T09:00:00Z',
        component: '',
      },
      {
        id: 'b',
        title: 'Incident b',
        state: 'identified',
        started: '2026-11-22T09:00:00Z',
        component: 'API, Web',
      },
    ]);
    expect(parts.tail).toBe('"dns_only":true');
    expect(JSON.parse(`{${parts.head},"incidents":${parts.incidents},${parts.tail}}`)).toMatchObject({
      page: 'acme',
    });
  });

  it('gives raw rtm with nulls for 240 minutes and 30 upd values', () => {
    const rtm = rtmMinutes(base.monitors, base.nowMs);
    expect(rtm).toHaveLength(240);
    expect(rtm.every((v) => v === null)).toBe(true);
    expect(rtmWindow(rtm, 60)).toEqual(new Array(60).fill(0));
    expect(updDays(base.monitors, base.nowMs)).toEqual(new Array(30).fill(100));
  });

  it('joins `updated` when read: the latest event, or the instant when nothing was projected yet', () => {
    const parts = renderEmbedParts(base);
    const query = { slug: 'acme', inc: '1' } as const;
    const at = (updatedAt: number | null) =>
      embedBody({ parts, updatedAt, figures: null, now: base.nowMs }, query);
    expect(at(base.updatedAt)).toBe(
      `{${parts.head},"updated":"2026-11-22T10:00:00Z","incidents":${parts.incidents},"dns_only":true}`,
    );
    expect(at(null)).toContain('"updated":"2026-11-22T10:30:20Z"');
  });

  it('says dns_only only for monitors all of type dns', () => {
    expect(renderEmbedParts({ ...base, monitors: [] }).tail).toBe('"dns_only":false');
    const mixed = renderEmbedParts({ ...base, monitors: [aMonitor({ type: 'dns' }), aMonitor({ id: 2 })] });
    expect(mixed.tail).toBe('"dns_only":false');
  });
});
