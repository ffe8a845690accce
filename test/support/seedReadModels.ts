// Writes read models exactly in the formats of docs/read-models.md, for API tests that must not
// wait for the projector: an active pointer "1:4" and, per page, the keys under its partition tag.
// The monitors' series (what charts, minute data, rtm and upd are assembled from when read) are
// written by the projector's own planning, so they are exactly what projecting the checks stores.
import type { RedisClient } from '../../src/store/redisClient.ts';
import type { MonitorConfig, PageState } from '../../projections/types.ts';
import type { CheckStatus } from '../../src/events/check.ts';
import type { Plan } from '../../src/events/page.ts';
import { encodeUpdated } from '../../projections/pageState/codec.ts';
import { formatCheckpoint, START } from '../../src/eventLog/readAfter.ts';
import { encodeAccess } from '../../projections/access/codec.ts';
import { toBytes } from '../../projections/store/bytes.ts';
import { formatActive } from '../../projections/store/control/codec.ts';
import { commitWrites } from '../../src/store/control/commitWrites.ts';
import { activeKey, partitionKeys, partitionTag } from '../../projections/store/control/keys.ts';
import { putPageCore } from '../../projections/pageState/writes.ts';
import { timelineKeys } from '../../projections/timeline/keys.ts';
import type { WriteOp } from '../../projections/store/writeOps.ts';
import { planChecks, type Check } from '../../projections/timeline/planChecks.ts';
import { pageKeys } from './pageKeys.ts';
import { hashToken } from '../../src/shared/hashToken.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';

export const SEED_VERSION = 1;
export const SEED_PARTITIONS = 4;

export type IncidentJson = { id: string; started_at: string } & Record<string, unknown>;
export type MaintenanceJson = {
  id: string;
  status: string;
  scheduled_start: string;
  scheduled_end: string;
} & Record<string, unknown>;
export type EmbedSeed = {
  page: string;
  page_url: string;
  overall: string;
  updated: string;
  incidents: unknown[];
  dns_only: boolean;
};

export type SeedCheck = Readonly<{ at: string; status: CheckStatus; responseTimeMs: number }>;
/** A monitor of the page core with its checks. Monitor ids are global: one page each. */
export type SeedMonitor = MonitorConfig & Readonly<{ checks: readonly SeedCheck[] }>;

export type SeedPage = {
  slug: string;
  state?: 'active' | 'blocked' | 'deleted';
  plan?: Plan;
  token?: string | null; // plaintext; stored as its SHA-256 digest
  incidents?: IncidentJson[];
  maintenances?: MaintenanceJson[];
  /** The page core and its monitors' checks, projected at `now`; absent: no document yet. */
  series?: Readonly<{ now: number; monitors: readonly SeedMonitor[] }>;
  snippets?: unknown;
  overall?: string;
  embed?: EmbedSeed;
  availability?: Record<number, Record<string, unknown>>; // monitor id → period → response
};

const seedTag = (prefix: string, slug: string): string =>
  partitionTag(prefix, SEED_VERSION, partitionOf(slug, SEED_PARTITIONS));

export const seedKeys = (prefix: string, slug: string) => pageKeys(seedTag(prefix, slug), slug);

export const seedActive = async (redis: RedisClient, prefix: string): Promise<void> => {
  await redis.set(activeKey(prefix), formatActive({ version: SEED_VERSION, partitions: SEED_PARTITIONS }));
};

const json = (value: unknown): string => JSON.stringify(value);
const pad2 = (n: number): string => String(n).padStart(2, '0');
const msOf = (iso: string): number => Date.parse(iso);

/** Every day of a month with 0, plus the given counts: the daily-counts response. */
export const dailyCounts = (month: string, perDay: Readonly<Record<string, number>> = {}) => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const counts: Record<string, number> = {};
  for (let d = 1; d <= days; d++) counts[`${month}-${pad2(d)}`] = perDay[`${month}-${pad2(d)}`] ?? 0;
  return { counts, start_date: `${month}-01`, end_date: `${month}-${pad2(days)}` };
};

/** The UTC days and months that [start, end) overlaps. */
const daysOverlapped = (start: string, end: string): string[] => {
  const days: string[] = [];
  for (let t = Math.floor(msOf(start) / 86_400_000) * 86_400_000; t < msOf(end); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
};

const countByMonth = (days: string[]): Map<string, Record<string, number>> => {
  const months = new Map<string, Record<string, number>>();
  for (const day of days) {
    const perDay = months.get(day.slice(0, 7)) ?? {};
    perDay[day] = (perDay[day] ?? 0) + 1;
    months.set(day.slice(0, 7), perDay);
  }
  return months;
};

/** The page document the access and the core are encoded from. */
const documentOf = (page: SeedPage): PageState => ({
  settings: {
    slug: page.slug,
    title: page.slug,
    plan: page.plan ?? 'growth',
    customDomain: null,
    tokenHash: page.token ? hashToken(page.token) : null,
    blocked: page.state === 'blocked',
    configuredAt: null,
  },
  deleted: page.state === 'deleted',
  updatedAt: null,
  monitors: Object.fromEntries(
    (page.series?.monitors ?? []).map(({ checks: _, ...config }) => [String(config.id), config]),
  ),
  incidents: {},
  maintenances: {},
});

/** The core and every check as one batch would write them (no head yet: the checks are the first). */
const seriesWrites = (tag: string, doc: PageState, series: NonNullable<SeedPage['series']>): WriteOp[] => {
  const writes = [putPageCore({ tag, slug: doc.settings.slug }, doc)];
  if (doc.deleted) return writes; // a deleted page's checks are dropped, its monitors' models deleted
  let position = 0n;
  for (const monitor of series.monitors) {
    const checks = monitor.checks.map((c): Check => {
      position += 1n;
      return { at: Date.parse(c.at), position, status: c.status, responseTimeMs: c.responseTimeMs };
    });
    if (checks.length === 0) continue;
    const plan = planChecks(tag, { monitorId: monitor.id, head: null, checks }, undefined, series.now);
    writes.push(...plan.writes);
  }
  return writes;
};

/** Commits like a projector run: fenced on the partition's checkpoint (seeded at the log's start). */
const commitSeries = async (redis: RedisClient, tag: string, writes: readonly WriteOp[]): Promise<void> => {
  const checkpoint = partitionKeys(tag).checkpoint;
  await redis.set(checkpoint, formatCheckpoint(START), 'NX');
  const expected = (await redis.get(checkpoint)) ?? '';
  if (!(await commitWrites(redis, { tag, expected, next: null }, writes)))
    throw new Error(`the seed of ${tag} was fenced`);
};

export const seedPage = async (redis: RedisClient, prefix: string, page: SeedPage): Promise<void> => {
  const k = seedKeys(prefix, page.slug);
  const doc = documentOf(page);
  if (page.series !== undefined) {
    const tag = seedTag(prefix, page.slug);
    for (const { id } of page.series.monitors) {
      // A monitor's series is keyed by its id within the partition, not by its page.
      if ((await redis.exists(timelineKeys({ tag, monitorId: id }).head)) > 0)
        throw new Error(`monitor ${String(id)} already has checks: give each page its own monitor ids`);
    }
    await commitSeries(redis, tag, seriesWrites(tag, doc, page.series));
  }
  const tx = redis.multi();
  tx.set(k.access, encodeAccess(doc));
  if (page.snippets !== undefined) tx.set(k.snippets, toBytes(json(page.snippets)));
  if (page.overall !== undefined) tx.set(k.overall, page.overall);
  if (page.embed !== undefined) {
    const e = page.embed;
    // `updated` is the page's latest event, kept apart and joined when read.
    const head = `"page":${json(e.page)},"page_url":${json(e.page_url)},"overall":${json(e.overall)}`;
    tx.hset(k.embed, 'head', head, 'incidents', json(e.incidents), 'tail', `"dns_only":${json(e.dns_only)}`);
    tx.set(k.updated, encodeUpdated(Date.parse(e.updated)));
  }
  for (const [id, periods] of Object.entries(page.availability ?? {})) {
    for (const [period, body] of Object.entries(periods))
      tx.hset(k.availability(Number(id)), period, toBytes(json(body)));
  }
  for (const doc of page.incidents ?? []) {
    const score = -msOf(doc.started_at);
    tx.hset(k.incidentDocs, doc.id, json(doc));
    tx.zadd(k.incidentList, score, doc.id);
    tx.zadd(k.incidentMonth(doc.started_at.slice(0, 7)), score, doc.id);
  }
  for (const [month, perDay] of countByMonth((page.incidents ?? []).map((d) => d.started_at.slice(0, 10))))
    tx.hset(k.incidentCounts, month, toBytes(json(dailyCounts(month, perDay))));
  for (const doc of page.maintenances ?? []) {
    const score = -msOf(doc.scheduled_start);
    tx.hset(k.maintenanceDocs, doc.id, json(doc));
    tx.zadd(k.maintenanceList, score, doc.id);
    tx.zadd(k.maintenanceStatus(doc.status), score, doc.id);
    const months = new Set(daysOverlapped(doc.scheduled_start, doc.scheduled_end).map((d) => d.slice(0, 7)));
    for (const month of months) tx.zadd(k.maintenanceMonth(month), score, doc.id);
  }
  const counted = (page.maintenances ?? []).filter((d) => d.status !== 'cancelled');
  for (const [month, perDay] of countByMonth(
    counted.flatMap((d) => daysOverlapped(d.scheduled_start, d.scheduled_end)),
  ))
    tx.hset(k.maintenanceCounts, month, toBytes(json(dailyCounts(month, perDay))));
  await tx.exec();
};
