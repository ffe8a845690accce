// Writes read models exactly in the formats of docs/read-models.md, for API tests that must not
// wait for the projector: an active pointer "1:4" and, per page, the keys under its partition tag.
import type { RedisClient } from '../../src/models/redis/redisClient.ts';
import type { Plan } from '../../src/events/page.ts';
import { toBytes } from '../../src/models/bytes.ts';
import { formatActive } from '../../src/models/control/codec.ts';
import { activeKey, partitionTag } from '../../src/models/control/keys.ts';
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
  rtm: (number | null)[];
  upd: number[];
  dns_only: boolean;
};

export type SeedPage = {
  slug: string;
  state?: 'active' | 'blocked' | 'deleted';
  plan?: Plan;
  token?: string | null; // plaintext; stored as its SHA-256 digest
  incidents?: IncidentJson[];
  maintenances?: MaintenanceJson[];
  charts?: unknown;
  minute?: unknown;
  snippets?: unknown;
  overall?: string;
  embed?: EmbedSeed;
  availability?: Record<number, Record<string, unknown>>; // monitor id → period → response
};

export const seedKeys = (prefix: string, slug: string) =>
  pageKeys(partitionTag(prefix, SEED_VERSION, partitionOf(slug, SEED_PARTITIONS)), slug);

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

export const seedPage = async (redis: RedisClient, prefix: string, page: SeedPage): Promise<void> => {
  const k = seedKeys(prefix, page.slug);
  const tx = redis.multi();
  const state = page.state ?? 'active';
  tx.set(
    k.access,
    state === 'deleted'
      ? json({ state, plan: null, token_hash: null })
      : json({ state, plan: page.plan ?? 'growth', token_hash: page.token ? hashToken(page.token) : null }),
  );
  if (page.charts !== undefined) tx.set(k.charts, toBytes(json(page.charts)));
  if (page.minute !== undefined) tx.set(k.minute, toBytes(json(page.minute)));
  if (page.snippets !== undefined) tx.set(k.snippets, toBytes(json(page.snippets)));
  if (page.overall !== undefined) tx.set(k.overall, page.overall);
  if (page.embed !== undefined) {
    const e = page.embed;
    const head = `"page":${json(e.page)},"page_url":${json(e.page_url)},"overall":${json(e.overall)},"updated":${json(e.updated)}`;
    tx.hset(
      k.embed,
      'head',
      head,
      'incidents',
      json(e.incidents),
      'rtm',
      json(e.rtm),
      'upd',
      json(e.upd),
      'tail',
      `"dns_only":${json(e.dns_only)}`,
    );
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
