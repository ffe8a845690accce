// Property: whatever the history and whatever the order its checks reach the log in, every figure
// the API serves equals the reference computed from the sorted history (test/support/
// figuresOracle.ts). Each run writes PAGES fresh pages of 1–3 monitors into one shared database
// through the real append path, in several appends with projection in between, then reads every
// figure over HTTP. A failure prints fast-check's seed and path: replay it with PROPERTY_SEED and
// PROPERTY_PATH (PROPERTY_NO_SHRINK=1 stops at the first failure).
import type { Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendsOf,
  arrival,
  checksOf,
  monitorHistory,
  type PlannedCheck,
} from '../support/checkHistories.ts';
import * as oracle from '../support/figuresOracle.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { getOk, listenApi } from '../support/testServers.ts';

const NOW = Date.parse('2026-11-22T12:34:30.250Z');
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 20);
const PAGES = 15; // per run: RUNS × PAGES histories, sharing appends and projector passes
const MONITORS = 3;
/**
 * Checks of any age arriving in any order, the oldest last (importing history after going live).
 * Off: each check arrives within the 24 h late window of decisions.md.
 */
const BACKFILL_ANY_AGE = true;

const iso = (ms: number) => new Date(ms).toISOString();
const CONFIGURED_AT = iso(NOW - 500 * 86_400_000);

const scenario = fc.array(monitorHistory, { minLength: 1, maxLength: MONITORS }).chain((histories) => {
  const count = histories.reduce((n, h, i) => n + checksOf(i, h, NOW).length, 0);
  return fc.tuple(fc.constant(histories), arrival(count));
});

type Page = Readonly<{
  slug: string;
  idOf: (index: number) => number;
  monitors: number;
  checks: PlannedCheck[];
  appends: number[][];
  resent: number[];
}>;

describe('figures of random check histories', () => {
  let env: ProjectorEnv;
  let server: Server;
  let pagesSoFar = 0;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: iso(NOW), partitions: 2 });
    server = listenApi(env);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await env.close();
  });

  const get = (path: string) => getOk(server, path);

  const eventOf = (page: Page, i: number) => {
    const c = page.checks[i]!;
    return {
      id: `${page.slug}-${String(i)}`,
      ...check(page.slug, page.idOf(c.monitor), iso(c.at), c.status, c.rt),
    };
  };

  /** Appends round k of every page (its last round also re-sends ids), then projects. */
  const deliver = async (pages: readonly Page[]) => {
    const rounds = Math.max(...pages.map((p) => p.appends.length));
    for (let k = 0; k < rounds; k++) {
      const fresh = pages.flatMap((p) => (p.appends[k] ?? []).map((i) => eventOf(p, i)));
      const again = pages.flatMap((p) =>
        k === p.appends.length - 1 ? p.resent.map((i) => eventOf(p, i)) : [],
      );
      if (fresh.length === 0) continue;
      const result = await env.append(...fresh, ...again);
      expect(result).toMatchObject({ accepted: fresh.length, duplicates: again.length });
      await env.project();
    }
  };

  const compare = async (page: Page) => {
    // Log order: ties at one instant go by it. Re-sent ids come after their first sending.
    const seq = new Map<number, number>();
    for (const batch of page.appends) for (const i of batch) seq.set(i, seq.size);
    const monitors = Array.from({ length: page.monitors }, (_, m) => ({
      id: page.idOf(m),
      name: `M${String(m)}`,
      checks: page.checks.flatMap((c, i) =>
        c.monitor === m ? [{ at: c.at, seq: seq.get(i)!, status: c.status, rt: c.rt }] : [],
      ),
    }));
    const { slug } = page;
    // Answers assembled when read name the instant of NOW's minute; availability is rendered at NOW.
    const instant = oracle.assemblyInstant(monitors, NOW, [Date.parse(CONFIGURED_AT)]);
    const expected: [path: string, body: unknown][] = [
      [`/api/status/${slug}/charts`, oracle.charts(monitors, instant)],
      [
        `/api/status-page/${slug}/minute-data`,
        { monitors: monitors.map((m) => ({ id: m.id, minute_data: oracle.minuteData(m, instant) })) },
      ],
      ...monitors.flatMap((m) =>
        oracle.PERIOD_NAMES.map((period): [string, unknown] => [
          `/api/status-pages/${slug}/monitors/${String(m.id)}/availability?period=${period}`,
          oracle.availability(m, period, NOW),
        ]),
      ),
    ];
    const embed = { rtm: oracle.rtm(monitors, 240, instant), upd: oracle.upd(monitors, 30, instant) };
    const [served, servedEmbed] = await Promise.all([
      Promise.all(expected.map(([path]) => get(path))),
      get(`/api/embed/status?slug=${slug}&rtm=240&upd=30`),
    ]);
    expected.forEach(([path, body], i) => {
      expect({ path, body: served[i] }).toEqual({ path, body });
    });
    expect(servedEmbed).toMatchObject(embed);
  };

  it(`equal the reference whatever the order of arrival (${String(RUNS * PAGES)} histories)`, async () => {
    const property = fc.asyncProperty(
      fc.array(scenario, { minLength: PAGES, maxLength: PAGES }),
      async (scenarios) => {
        const pages = scenarios.map(([histories, plan]): Page => {
          const n = (pagesSoFar += 1);
          const checks = histories.flatMap((h, i) => checksOf(i, h, NOW));
          return {
            slug: `h${String(n)}`,
            idOf: (index) => n * MONITORS + index,
            monitors: histories.length,
            checks,
            appends: appendsOf(checks, plan, BACKFILL_ANY_AGE),
            resent: [...new Set(plan.resent)].filter((i) => i < checks.length),
          };
        });
        await env.append(
          ...pages.flatMap((p) => [
            pageConfigured(p.slug, { plan: 'business' }, CONFIGURED_AT),
            ...Array.from({ length: p.monitors }, (_, i) =>
              monitorConfigured(p.slug, p.idOf(i), { name: `M${String(i)}` }, CONFIGURED_AT),
            ),
          ]),
        );
        await deliver(pages);
        await Promise.all(pages.map(compare));
      },
    );
    const seed = process.env['PROPERTY_SEED'];
    const path = process.env['PROPERTY_PATH'];
    await fc.assert(property, {
      numRuns: RUNS,
      ...(seed === undefined ? {} : { seed: Number(seed) }),
      ...(path === undefined ? {} : { path }),
      ...(process.env['PROPERTY_NO_SHRINK'] === undefined ? {} : { endOnFailure: true }),
    });
  }, 600_000);
});
