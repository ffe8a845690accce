// Typed reads of the SLA model.
import { fromBuffer, type StoredBytes } from '../bytes.ts';
import type { PageRef } from '../page.ts';
import { parsePeriod } from '../../../projections/sla/periods.ts';
import type { RedisClient } from '../redis/redisClient.ts';
import type { PageAccess } from '../access/codec.ts';
import { accessRead } from '../access/reads.ts';
import {
  getString,
  known,
  readAll,
  runRead,
  hashGetBuffer,
  hashGetMany,
  mapRead,
  setMembers,
  zsetScoredByScore,
  type Read,
} from '../redis/reads.ts';
import { decodeMeta, decodeReport, decodeSummaries, type MonthSummaries, type SlaMeta } from './codec.ts';
import { csvField, reportField, slaMetaKey, slaPartitionKeys, slaYearKey, summaryField } from './keys.ts';
import { partitionKeys } from '../control/keys.ts';

export const slaMetaRead = (page: PageRef): Read<SlaMeta | null> =>
  mapRead(getString(slaMetaKey(page)), decodeMeta);

export type SlaFormat = 'json' | 'csv';

/** A stored report of `period` (its year is its first four digits). */
export const slaReportRead = (page: PageRef, period: string, format: SlaFormat): Read<StoredBytes | null> =>
  mapRead(
    hashGetBuffer(
      slaYearKey(page, Number(period.slice(0, 4))),
      format === 'csv' ? csvField(period) : reportField(period),
    ),
    (stored) => (format === 'csv' ? fromBuffer(stored) : decodeReport(fromBuffer(stored))),
  );

/** The stored summaries of `months` (labels of one year), null where none is stored. */
export const slaSummariesRead = (
  page: PageRef,
  year: number,
  months: readonly string[],
): Read<(MonthSummaries | null)[]> =>
  mapRead(hashGetMany(slaYearKey(page, year), months.map(summaryField)), (texts) =>
    texts.map(decodeSummaries),
  );

/** The pages marked for a render, with the earliest instant that changed. */
export const slaDirtyRead = (tag: string): Read<Map<string, number>> =>
  mapRead(
    zsetScoredByScore(slaPartitionKeys(tag).dirty, '-inf', '+inf'),
    (members) => new Map(members.map(([slug, score]) => [slug, Number(score)])),
  );

export const slaTickRead = (tag: string): Read<number> =>
  mapRead(getString(slaPartitionKeys(tag).tick), (text) => (text === null ? 0 : Number(text)));

/** Every live page of the partition (the clock renders their current periods). */
export const partitionPagesRead = (tag: string): Read<string[]> => setMembers(partitionKeys(tag).pages);

/** The API's one or two round trips for a report: access and meta (and the body when the period is named). */
export const createSlaReads = (redis: RedisClient) => ({
  report: async (page: PageRef, period: string | null, format: SlaFormat): Promise<SlaRead> => {
    const named = period !== null && parsePeriod(period) !== null;
    const [access, meta, stored] = await readAll(redis, [
      accessRead(page),
      slaMetaRead(page),
      named ? slaReportRead(page, period, format) : known(null),
    ]);
    const label = period ?? meta?.current ?? null;
    if (period !== null || label === null) return { access, meta, label, stored };
    return { access, meta, label, stored: await runRead(redis, slaReportRead(page, label, format)) };
  },
});

export type SlaRead = Readonly<{
  access: PageAccess | null;
  meta: SlaMeta | null;
  /** The period asked for, or the current month when none was. */
  label: string | null;
  stored: StoredBytes | null;
}>;

export type SlaReads = ReturnType<typeof createSlaReads>;
