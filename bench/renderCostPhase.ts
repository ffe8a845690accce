// What one page's render costs (load its models, render every output, commit) when its monitor
// flapped every minute for a year, against the same page with a quiet monitor. Both monitors have
// a check every minute; the flapping one alternates down and up, so it holds a failure every
// other minute (262,800 in a year). The histories are planned by the projector's own planner
// (planChecks) a day at a time and committed as a batch would be, under a Redis prefix of the
// phase's own, removed at the end.
import type { Redis } from 'ioredis';
import type { PageState } from '../projections/types.ts';
import { commitWrites } from '../src/store/control/commitWrites.ts';
import { partitionKeys, partitionTag } from '../projections/store/control/keys.ts';
import { createVersion } from '../src/store/control/versions.ts';
import { putPageCore } from '../projections/pageState/writes.ts';
import { runRead } from '../src/store/reads.ts';
import { headRead } from '../src/readModels/timeline/reads.ts';
import type { CheckStatus } from '../src/events/check.ts';
import { planChecks } from '../projections/timeline/planChecks.ts';
import { renderPages } from '../src/projector/renderPages.ts';
import { DAY_MS, MINUTE_MS } from '../src/shared/time.ts';
import { dropRedisPrefix } from './benchEnv.ts';
import type { Figure } from './report.ts';

const URLS = { baseUrl: 'http://localhost:3000', pageUrlTemplate: '{base_url}/s/{slug}' };
const FULL = { incidents: true, maintenances: true, availability: 'all' as const };

const pageState = (slug: string, monitorId: number, now: number): PageState => ({
  settings: {
    slug,
    title: slug,
    plan: 'business',
    customDomain: null,
    tokenHash: null,
    blocked: false,
    configuredAt: now,
  },
  deleted: false,
  updatedAt: now,
  monitors: { [monitorId]: { id: monitorId, name: slug, type: 'http', impact: 'partial', position: null } },
  incidents: {},
  maintenances: {},
});

/** A check every minute for `days` days up to `now`, committed a day at a time. */
const seed = async (
  redis: Redis,
  tag: string,
  page: { slug: string; monitorId: number; status: (minute: number) => CheckStatus },
  days: number,
  now: number,
) => {
  const fence = { tag, expected: (await redis.get(partitionKeys(tag).checkpoint))!, next: null };
  const monitor = { tag, monitorId: page.monitorId };
  await commitWrites(redis, fence, [
    putPageCore({ tag, slug: page.slug }, pageState(page.slug, page.monitorId, now)),
  ]);
  let position = 0n;
  const first = Math.floor((now - days * DAY_MS) / MINUTE_MS);
  const last = Math.floor(now / MINUTE_MS);
  for (let from = first; from <= last; from += DAY_MS / MINUTE_MS) {
    const checks = [];
    for (let minute = from; minute < Math.min(from + DAY_MS / MINUTE_MS, last + 1); minute++)
      checks.push({
        at: minute * MINUTE_MS,
        position: (position += 1n),
        status: page.status(minute),
        responseTimeMs: 120,
      });
    const head = await runRead(redis, headRead(monitor));
    const plan = planChecks(tag, { monitorId: page.monitorId, head, checks }, undefined, now);
    if (!(await commitWrites(redis, fence, plan.writes))) throw new Error('render cost: seeding was fenced');
  }
};

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export const renderCostPhase = async (
  redis: Redis,
  options: { prefix: string; days: number; rounds: number; log: (line: string) => void },
): Promise<Figure[]> => {
  const prefix = `${options.prefix}:rendercost`;
  const tag = partitionTag(prefix, await createVersion(redis, prefix, 1, new Date()), 0);
  const now = Date.now();
  try {
    const quiet = { slug: 'rc-quiet', monitorId: 1, status: (): CheckStatus => 'up' };
    const flapping = {
      slug: 'rc-flapping',
      monitorId: 2,
      status: (minute: number): CheckStatus => (minute % 2 === 0 ? 'down' : 'up'),
    };
    options.log(`  seeding ${String(options.days)} days of a check a minute, quiet and flapping…`);
    await Promise.all([
      seed(redis, tag, quiet, options.days, now),
      seed(redis, tag, flapping, options.days, now),
    ]);
    const failures = await redis.zcard(`${tag}:mon:2:down`);
    const time = async (slug: string) => {
      const started = performance.now();
      if (!(await renderPages(redis, { tag, pages: [{ slug, scope: FULL, clear: [] }], now, urls: URLS })))
        throw new Error('render cost: render was fenced');
      return performance.now() - started;
    };
    for (let i = 0; i < 3; i++) await Promise.all([time(quiet.slug), time(flapping.slug)]); // warm up
    const quietMs: number[] = [];
    const flappingMs: number[] = [];
    // Alternate, so that drift on a shared machine hits both alike.
    for (let round = 0; round < options.rounds; round++) {
      quietMs.push(await time(quiet.slug));
      flappingMs.push(await time(flapping.slug));
    }
    const value = median(flappingMs);
    const baseline = median(quietMs);
    const ratio = value / baseline;
    return [
      {
        section: 'render',
        name: `render of a page, monitor flapping every minute for ${options.days === 365 ? 'a year' : `${String(options.days)} days`}`,
        unit: 'ms',
        value,
        baseline: { name: 'quiet monitor', value: baseline },
        ratio,
        target: { text: '≤ 2×', met: ratio <= 2 },
        detail: {
          failures_stored: failures,
          rounds: options.rounds,
          note: 'median of alternating renders of every output (load, render, commit); failures beyond partial days are read as day summaries',
        },
      },
    ];
  } finally {
    await dropRedisPrefix(redis, prefix);
  }
};
