// Write builders of the SLA model.
import { partitionKeys } from '../store/control/keys.ts';
import type { PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { encodeMeta, encodeSummaries, type MonthSummaries, type SlaMeta } from './codec.ts';
import { slaMetaKey, slaPartitionKeys, slaYearKey, summaryField } from './keys.ts';

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

/** The instant of the partition's clock this minute: current reports are made at it. */
export const setSlaTick = (tag: string, asOf: number): WriteOp => ({
  op: 'set',
  key: slaPartitionKeys(tag).tick,
  value: asOf,
});

/** When the page's current month completes (the clock renders it then, once). */
export const setSlaDue = (page: PageRef, at: number): WriteOp => ({
  op: 'zadd',
  key: slaPartitionKeys(page.tag).due,
  score: at,
  member: page.slug,
});

export const dropSlaDue = (page: PageRef): WriteOp => ({
  op: 'zrem',
  key: slaPartitionKeys(page.tag).due,
  member: page.slug,
});

/** One year's month summaries, a write each (the fenced commit spreads them over bounded calls). */
export const putSlaSummaries = (
  page: PageRef,
  year: number,
  summaries: readonly (readonly [month: string, MonthSummaries])[],
): WriteOp[] =>
  summaries.map(([month, s]) => ({
    op: 'hset',
    key: slaYearKey(page, year),
    fields: [[summaryField(month), encodeSummaries(s)]],
  }));

export const putSlaMeta = (page: PageRef, meta: SlaMeta): WriteOp => ({
  op: 'set',
  key: slaMetaKey(page),
  value: encodeMeta(meta),
});

/** Drops whole years of summaries (out of reach, re-derived, or the page is gone). */
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
