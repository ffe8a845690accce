// Property: whatever the checks, maintenance windows (started early or late, completed early,
// cancelled midway, edited afterwards) and arrival order, every SLA report the API serves equals
// the reference of test/support/slaOracle.ts, in zones with DST changes and odd offsets. Events
// cluster around local midnights that end months and quarters and around DST nights. A failure
// prints fast-check's seed and path: replay with PROPERTY_SEED and PROPERTY_PATH.
import type { Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { getOk, listenApi } from '../support/testServers.ts';
import {
  oracleReport,
  startOfLocalDate,
  type OraclePage,
  type RawMaintenance,
} from '../support/slaOracle.ts';

const NOW = Date.parse('2026-11-22T12:34:30.250Z');
// The instant the current periods are reported up to: the minute's start.
const AS_OF = Date.parse('2026-11-22T12:34:00Z');
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 6);
const PAGES = 6;
const ZONES = ['Europe/Berlin', 'America/St_Johns', 'Asia/Kathmandu', 'UTC'] as const;
/** Local dates whose midnight (or the night after) is a boundary: months, quarters, DST nights. */
const DATES = [
  '2025-12-01',
  '2026-01-01',
  '2026-03-01',
  '2026-03-08',
  '2026-03-09',
  '2026-03-29',
  '2026-03-30',
  '2026-04-01',
  '2026-07-01',
  '2026-10-01',
  '2026-10-25',
  '2026-10-26',
  '2026-11-01',
  '2026-11-02',
];
const PERIODS = [
  '2025-12',
  '2026-01',
  '2026-02',
  '2026-03',
  '2026-04',
  '2026-06',
  '2026-07',
  '2026-09',
  '2026-10',
  '2026-11',
  '2025-Q4',
  '2026-Q1',
  '2026-Q2',
  '2026-Q3',
  '2026-Q4',
  '2025',
  '2026',
];
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const instant = fc.record({
  date: fc.constantFrom(...DATES),
  offset: fc.integer({ min: -5 * HOUR, max: 5 * HOUR }),
});

const maintenance = fc.record({
  at: instant,
  length: fc.integer({ min: 60_000, max: 8 * HOUR }),
  scope: fc.constantFrom('page', 'first', 'other'),
  started: fc.option(fc.integer({ min: -HOUR, max: HOUR })),
  /** Fractions of the window: completed or cancelled there. */
  completed: fc.option(fc.double({ min: 0.05, max: 1.2, noNaN: true })),
  cancelled: fc.option(fc.double({ min: 0.05, max: 1.2, noNaN: true })),
  edit: fc.option(
    fc.record({
      shift: fc.integer({ min: -3 * HOUR, max: 3 * HOUR }),
      length: fc.integer({ min: 60_000, max: 4 * HOUR }),
    }),
  ),
});

const scenario = fc.record({
  zone: fc.constantFrom(...ZONES),
  target: fc.constantFrom(99.9, 99.95, 99.5, 100, 95.125),
  exclude: fc.boolean(),
  monitors: fc.array(
    fc.record({
      target: fc.option(fc.constantFrom(99, 99.99)),
      checks: fc.array(
        fc.record({ at: instant, status: fc.constantFrom('up', 'down', 'down', 'degraded') }),
        {
          minLength: 1,
          maxLength: 14,
        },
      ),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  maintenances: fc.array(maintenance, { maxLength: 3 }),
  firstRound: fc.double({ min: 0, max: 1, noNaN: true }),
  shuffle: fc.integer(),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

describe('SLA reports of random histories', () => {
  let env: ProjectorEnv;
  let server: Server;
  let pages = 0;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: iso(NOW), partitions: 2 });
    server = listenApi(env);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  /** The page's events (configuration and maintenances, then checks in two rounds) and its reference. */
  const build = (s: Scenario) => {
    const slug = `sla${String((pages += 1))}`;
    const at = (p: { date: string; offset: number }) => startOfLocalDate(s.zone, p.date) + p.offset;
    const monitors = s.monitors.map((m, i) => {
      const seen = new Set<number>();
      const checks = m.checks
        .map((c) => ({ at: at(c.at) + i, status: c.status }))
        .filter((c) => !seen.has(c.at) && seen.add(c.at));
      return {
        id: pages * 10 + i,
        name: `M${String(i)}`,
        position: i === 0 ? null : 1,
        checks,
        target: m.target,
      };
    });
    const config = '2025-01-01T00:00:00Z';
    const head: object[] = [
      pageConfigured(
        slug,
        { time_zone: s.zone, sla_target: s.target, sla_exclude_maintenance: s.exclude },
        config,
      ),
      ...monitors.map((m) =>
        monitorConfigured(
          slug,
          m.id,
          {
            name: m.name,
            ...(m.position === null ? {} : { position: m.position }),
            ...(m.target === null ? {} : { sla_target: m.target }),
          },
          config,
        ),
      ),
    ];
    const windows: RawMaintenance[] = [];
    s.maintenances.forEach((w, k) => {
      const id = `w${String(k)}`;
      let start = at(w.at);
      let end = start + w.length;
      const components = w.scope === 'page' ? [] : w.scope === 'first' ? ['M0'] : ['Other'];
      const ev = (type: string, when: number, data: object = {}) => ({
        type,
        page: slug,
        at: iso(Math.min(when, NOW - 60_000)),
        data: { maintenance_id: id, ...data },
      });
      head.push(
        ev('maintenance.scheduled', start - 86_400_000, {
          title: id,
          scheduled_start: iso(start),
          scheduled_end: iso(end),
          components,
        }),
      );
      const done: { started?: number; completed?: number; cancelled?: number } = {};
      if (w.started !== null)
        head.push(ev('maintenance.started', (done.started = Math.min(start + w.started, NOW - 60_000))));
      if (w.completed !== null)
        head.push(
          ev(
            'maintenance.completed',
            (done.completed = Math.min(start + Math.round(w.length * w.completed), NOW - 60_000)),
          ),
        );
      if (w.cancelled !== null)
        head.push(
          ev(
            'maintenance.cancelled',
            (done.cancelled = Math.min(start + Math.round(w.length * w.cancelled), NOW - 60_000)),
          ),
        );
      if (w.edit !== null) {
        start += w.edit.shift;
        end = start + w.edit.length;
        head.push(
          ev('maintenance.updated', end + 86_400_000, {
            scheduled_start: iso(start),
            scheduled_end: iso(end),
          }),
        );
      }
      windows.push({ start, end, components, ...done });
    });
    const checks = monitors.flatMap((m) => m.checks.map((c) => check(slug, m.id, iso(c.at), c.status)));
    // A deterministic shuffle: checks reach the log in any order, over two projected rounds.
    let seed = s.shuffle;
    const shuffled = checks
      .map((c) => ({ c, k: (seed = (seed * 1103515245 + 12345) % 2147483648) }))
      .sort((a, b) => a.k - b.k)
      .map(({ c }) => c);
    const cut = Math.floor(shuffled.length * s.firstRound);
    const page: OraclePage = {
      slug,
      zone: s.zone,
      target: s.target,
      exclude: s.exclude,
      monitors: monitors.map((m) => ({ ...m, target: m.target ?? undefined })),
      maintenances: windows,
    };
    return { page, rounds: [[...head, ...shuffled.slice(0, cut)], shuffled.slice(cut)] };
  };

  it(`equal the reference (${String(RUNS * PAGES)} pages)`, async () => {
    const property = fc.asyncProperty(
      fc.array(scenario, { minLength: PAGES, maxLength: PAGES }),
      async (scenarios) => {
        const built = scenarios.map(build);
        for (const round of [0, 1]) {
          const events = built.flatMap((b) => b.rounds[round]!);
          if (events.length > 0) await env.append(...events);
          await env.project();
        }
        for (const { page } of built)
          for (const period of PERIODS) {
            const served = await getOk(server, `/api/status-pages/${page.slug}/sla?period=${period}`);
            const expected = oracleReport(page, period, AS_OF);
            expect({ period, zone: page.zone, served }).toEqual({
              period,
              zone: page.zone,
              served: expected,
            });
          }
      },
    );
    const seed = process.env['PROPERTY_SEED'];
    const path = process.env['PROPERTY_PATH'];
    const details = await fc.check(property, {
      numRuns: RUNS,
      ...(seed === undefined ? {} : { seed: Number(seed) }),
      ...(path === undefined ? {} : { path }),
      endOnFailure: process.env['PROPERTY_NO_SHRINK'] !== undefined,
    });
    console.log(
      `slaProperty seed ${String(details.seed)}${details.failed ? ` path ${String(details.counterexamplePath)}` : ''}`,
    );
    if (details.failed)
      throw details.errorInstance instanceof Error
        ? details.errorInstance
        : new Error(String(details.errorInstance));
  }, 600_000);
});
