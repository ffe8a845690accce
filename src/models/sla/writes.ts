// Write builders of the SLA model.
import { toBytes } from '../bytes.ts';
import { partitionKeys } from '../control/keys.ts';
import type { PageRef } from '../page.ts';
import type { WriteOp } from '../redis/writeOps.ts';
import { encodeMeta, encodeReport, encodeSummaries, type MonthSummaries, type SlaMeta } from './codec.ts';
import { csvField, reportField, slaMetaKey, slaPartitionKeys, slaYearKey, summaryField } from './keys.ts';

/** Marks a page's reports from instant `from` on (0: all of them); an earlier mark wins (ZADD LT). */
export const markSlaDirty = (tag: string, slug: string, from: number): WriteOp => ({
  op: 'zadd',
  key: slaPartitionKeys(tag).dirty,
  score: Math.max(0, from),
  member: slug,
  onlyLower: true,
});

export const clearSlaDirty = (tag: string, slug: string): WriteOp => ({
  op: 'zrem',
  key: slaPartitionKeys(tag).dirty,
  member: slug,
});

export const setSlaTick = (tag: string, minute: number): WriteOp => ({
  op: 'set',
  key: slaPartitionKeys(tag).tick,
  value: minute,
});

export type RenderedPeriod = Readonly<{ period: string; json: string; csv: string }>;

/**
 * One year's hash: each report, CSV and month summary is a write of its own, so the fenced commit
 * can spread them over calls of bounded size (a year's report of a page with many monitors is
 * large; a single value over the cap goes alone, as every model's does).
 */
export const putSlaYear = (
  page: PageRef,
  year: number,
  reports: readonly RenderedPeriod[],
  summaries: readonly (readonly [month: string, MonthSummaries])[],
): WriteOp[] => {
  const key = slaYearKey(page, year);
  const field = (name: string, value: string): WriteOp => ({ op: 'hset', key, fields: [[name, value]] });
  return [
    ...reports.flatMap((r) => [
      field(reportField(r.period), encodeReport(r.json)),
      field(csvField(r.period), toBytes(r.csv)),
    ]),
    ...summaries.map(([month, s]) => field(summaryField(month), encodeSummaries(s))),
  ];
};

export const putSlaMeta = (page: PageRef, meta: SlaMeta): WriteOp => ({
  op: 'set',
  key: slaMetaKey(page),
  value: encodeMeta(meta),
});

/** Drops whole years of reports (out of reach, re-derived, or the page is gone). */
export const dropSlaYears = (page: PageRef, years: readonly number[]): WriteOp => ({
  op: 'del',
  keys: years.map((year) => slaYearKey(page, year)),
});

export const dropSlaMeta = (page: PageRef): WriteOp => ({ op: 'del', keys: [slaMetaKey(page)] });

/** Every render is announced, so the API's cached answers of the page go stale. */
export const announceSlaRender = (page: PageRef): WriteOp => ({
  op: 'publish',
  channel: partitionKeys(page.tag).changes,
  message: `${page.slug} rendered`,
});
