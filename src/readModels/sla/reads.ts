// Typed reads of the SLA model: the projector's (marks, due pages, the clock) and the API's (the
// head of a report, then the inputs of its read-time assembly).
import { assembleReport, periodMonths, type AssembleInput } from '../../../projections/sla/assembleReport.ts';
import type { Span } from '../../../projections/sla/intervals.ts';
import { periodBounds, type Period } from '../../../projections/sla/periods.ts';
import type { RenderedReport } from '../../../projections/sla/renderReports.ts';
import { slaSettings } from '../../../projections/sla/settings.ts';
import type { PageState } from '../../../projections/types.ts';
import type { PageAccess } from '../../../projections/access/codec.ts';
import { accessRead } from '../access/reads.ts';
import { partitionKeys } from '../../../projections/store/control/keys.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { decodePage } from '../../../projections/pageState/codec.ts';
import { pageStateKeys } from '../../../projections/pageState/keys.ts';
import {
  getString,
  hashGetAll,
  hashGetMany,
  known,
  listRead,
  mapRead,
  readAll,
  runRead,
  setMembers,
  tupleRead,
  zsetByScore,
  zsetScoredByScore,
  type Read,
} from '../../store/reads.ts';
import type { RedisClient } from '../../store/redisClient.ts';
import { failuresOverlappingRead, headRead } from '../timeline/reads.ts';
import {
  decodeMeta,
  decodeSummaries,
  type MonthSummaries,
  type SlaMeta,
} from '../../../projections/sla/codec.ts';
import { slaMetaKey, slaPartitionKeys, slaYearKey, summaryField } from '../../../projections/sla/keys.ts';

export const slaMetaRead = (page: PageRef): Read<SlaMeta | null> =>
  mapRead(getString(slaMetaKey(page)), decodeMeta);

/** The stored summaries of `months` (labels of one year), null where none is stored. */
const slaSummariesRead = (
  page: PageRef,
  year: number,
  months: readonly string[],
): Read<(MonthSummaries | null)[]> =>
  months.length === 0
    ? known([])
    : mapRead(hashGetMany(slaYearKey(page, year), months.map(summaryField)), (texts) =>
        texts.map(decodeSummaries),
      );

/** The page document as the reports need it: settings, monitors, maintenances (no incidents). */
export const slaPageRead = (page: PageRef): Read<PageState | null> => {
  const keys = pageStateKeys(page);
  return mapRead(
    tupleRead([getString(keys.state), getString(keys.updated), hashGetAll(keys.stateMaintenances)]),
    ([core, updated, maintenances]) =>
      decodePage({ core, updated, incidents: {}, maintenances })?.state ?? null,
  );
};

/** A monitor's failures overlapping [from, asOf), its open one ending at `asOf`. */
export const slaFailuresRead = (tag: string, monitorId: number, from: number, asOf: number): Read<Span[]> =>
  mapRead(
    tupleRead([failuresOverlappingRead({ tag, monitorId }, from, asOf), headRead({ tag, monitorId })]),
    ([closed, head]) =>
      head?.openDownStart == null ? closed : [...closed, { start: head.openDownStart, end: asOf }],
  );

/** The pages marked for a render, with the earliest instant that changed. */
export const slaDirtyRead = (tag: string): Read<Map<string, number>> =>
  mapRead(
    zsetScoredByScore(slaPartitionKeys(tag).dirty, '-inf', '+inf'),
    (members) => new Map(members.map(([slug, score]) => [slug, Number(score)])),
  );

/** The pages whose current month completed by `asOf`. */
export const slaDueRead = (tag: string, asOf: number): Read<string[]> =>
  zsetByScore(slaPartitionKeys(tag).due, '-inf', asOf);

/** The instant current reports are made at, null before the partition's first clock render. */
export const slaTickRead = (tag: string): Read<number | null> =>
  mapRead(getString(slaPartitionKeys(tag).tick), (text) => (text === null ? null : Number(text)));

/** Every live page of the partition (a rebuild's end renders them all). */
export const partitionPagesRead = (tag: string): Read<string[]> => setMembers(partitionKeys(tag).pages);

export type SlaHead = Readonly<{
  access: PageAccess | null;
  meta: SlaMeta | null;
  /** The instant current reports are made at (the partition's clock this minute). */
  asOf: number | null;
}>;

type SlaInputs = Omit<AssembleInput, 'slug' | 'period' | 'asOf'>;

/**
 * The API's reads: the head in one round trip; the inputs of a report in one (a complete period)
 * or two (the current month's failures, once the monitors are known).
 */
export const createSlaReads = (redis: RedisClient) => {
  const reads = {
    head: async (page: PageRef): Promise<SlaHead> => {
      const [access, meta, asOf] = await readAll(redis, [
        accessRead(page),
        slaMetaRead(page),
        slaTickRead(page.tag),
      ]);
      return { access, meta, asOf };
    },
    inputs: async (
      page: PageRef,
      months: Readonly<{ stored: readonly Period[]; current: Period | null; from: number; asOf: number }>,
    ): Promise<SlaInputs | null> => {
      const year = (months.current ?? months.stored[0])?.year ?? 0;
      const [state, summaries] = await readAll(redis, [
        slaPageRead(page),
        slaSummariesRead(
          page,
          year,
          months.stored.map((m) => m.label),
        ),
      ]);
      if (state === null) return null;
      const stored = new Map<string, MonthSummaries>();
      months.stored.forEach((m, i) => {
        const found = summaries[i];
        if (found) stored.set(m.label, found);
      });
      const ids = Object.values(state.monitors).map((m) => m.id);
      const failuresOf = (id: number) =>
        mapRead(slaFailuresRead(page.tag, id, months.from, months.asOf), (list) => [id, list] as const);
      const failures = months.current === null ? [] : await runRead(redis, listRead(ids.map(failuresOf)));
      return { state, stored, failures: new Map(failures) };
    },
    /**
     * The report of `period` at `asOf` in `zone` (the stored summaries'), assembled; null while the
     * summaries it needs are not stored yet (the page's first render, a zone change on its way).
     */
    report: async (
      page: PageRef,
      zone: string,
      period: Period,
      asOf: number,
    ): Promise<RenderedReport | null> => {
      const months = periodMonths(zone, period, asOf);
      const from = months.current === null ? asOf : periodBounds(zone, months.current)[0];
      const inputs = await reads.inputs(page, { ...months, from, asOf });
      if (inputs === null || slaSettings(inputs.state.settings).zone !== zone) return null;
      return assembleReport({ ...inputs, slug: page.slug, period, asOf });
    },
  };
  return reads;
};

export type SlaReads = ReturnType<typeof createSlaReads>;
