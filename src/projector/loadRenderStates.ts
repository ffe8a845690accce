// What a render reads of its pages' documents: only the incidents and maintenances it can show
// and those that changed, so a page's history does not grow a render's cost (docs/read-models.md).
import { daysOfMonth, incidentDailyCounts, monthsOfIncident } from '../../projections/lists/dailyCounts.ts';
import type { PageState } from '../../projections/types.ts';
import type { PageRef } from '../../projections/store/page.ts';
import { decodePage } from '../../projections/pageState/codec.ts';
import { pageStateKeys } from '../../projections/pageState/keys.ts';
import { pageStateRead } from '../readModels/pageState/reads.ts';
import type { RedisClient } from '../store/redisClient.ts';
import { runPartitionRead } from '../store/partitionReads.ts';
import {
  getString,
  hashGetMany,
  hashLength,
  known,
  listRead,
  mapRead,
  setMembers,
  tupleRead,
  zsetCount,
  zsetScore,
  zsetScoredByScoreDesc,
  zsetSize,
  type Read,
  type Scored,
} from '../store/reads.ts';
import type { StoredMaintenanceLists } from '../../projections/lists/storedMaintenanceLists.ts';
import {
  maintenanceExtraRead,
  maintenanceProbeRead,
  probedMaintenanceIds,
  storedListsOf,
  type MaintenanceExtra,
  type MaintenanceProbe,
} from './loadMaintenances.ts';
import { SHOWN_ITEMS, tiesRead } from './shownItems.ts';

type RenderState = Readonly<{
  state: PageState | null;
  /** Per month of a changed incident, its incidents per day (the first of the month first). */
  incidentMonths: ReadonlyMap<string, readonly number[]>;
  /** What the stored maintenance lists show; null when `state` was read whole. */
  maintenanceLists: StoredMaintenanceLists | null;
}>;

/**
 * `whole`: the whole document (the render rewrites every list); else the incidents and
 * maintenances `changed` names and those a render at `now` can show.
 */
type StateWanted = Readonly<{
  page: PageRef;
  whole: boolean;
  changed: readonly string[];
  changedMaintenances: readonly string[];
  now: number;
}>;

const monthsOfStarts = (starts: readonly number[]): string[] => [
  ...new Set(starts.flatMap((startedAt) => monthsOfIncident({ startedAt } as never))),
];

const countsFromDocs = (state: PageState | null, changed: readonly string[]) => {
  const docs = Object.values(state?.incidents ?? {});
  const months = monthsOfStarts(changed.flatMap((id) => state?.incidents[id]?.startedAt ?? []));
  const perDay = (month: string) => Object.values(incidentDailyCounts(docs, month).counts);
  return new Map(months.map((month) => [month, perDay(month)] as const));
};

const wholeRead = (want: StateWanted): Read<RenderState> =>
  mapRead(pageStateRead(want.page), (state) => ({
    state,
    incidentMonths: countsFromDocs(state, want.changed),
    maintenanceLists: null,
  }));

type Probe = Readonly<{
  core: string | null;
  updated: string | null;
  maintenances: MaintenanceProbe;
  stored: number;
  indexed: number;
  open: string[];
  byStart: Scored[];
  byUpdate: Scored[];
  changedStarts: (number | null)[];
}>;

const wantedMaintenances = (want: StateWanted) => ({
  page: want.page,
  changed: want.changedMaintenances,
  now: want.now,
});

const probeRead = (want: StateWanted): Read<Probe> => {
  const keys = pageStateKeys(want.page);
  const top = (key: string) => zsetScoredByScoreDesc(key, '+inf', '-inf', SHOWN_ITEMS);
  return mapRead(
    tupleRead([
      getString(keys.state),
      getString(keys.updated),
      maintenanceProbeRead(wantedMaintenances(want)),
      hashLength(keys.stateIncidents),
      zsetSize(keys.incidentsByStart),
      setMembers(keys.incidentsOpen),
      top(keys.incidentsByStart),
      top(keys.incidentsByUpdate),
      listRead(want.changed.map((id) => zsetScore(keys.incidentsByStart, id))),
    ]),
    ([core, updated, maintenances, stored, indexed, open, byStart, byUpdate, changedStarts]) => ({
      core,
      updated,
      maintenances,
      stored,
      indexed,
      open,
      byStart,
      byUpdate,
      changedStarts,
    }),
  );
};

/** Incidents started on each day of the month: one count per day, whatever the month holds. */
const monthRead = (key: string, month: string): Read<number[]> =>
  listRead(daysOfMonth(month).map(([start, end]) => zsetCount(key, start, `(${end}`)));

type Extra = Readonly<{
  ties: string[];
  months: string[];
  starts: number[][];
  maintenances: MaintenanceExtra;
}>;

const extraRead = (want: StateWanted, probe: Probe): Read<Extra> => {
  const keys = pageStateKeys(want.page);
  const months = monthsOfStarts(probe.changedStarts.flatMap((s) => (s === null ? [] : [s])));
  return mapRead(
    tupleRead([
      tiesRead(keys.incidentsByStart, probe.byStart),
      tiesRead(keys.incidentsByUpdate, probe.byUpdate),
      listRead(months.map((month) => monthRead(keys.incidentsByStart, month))),
      maintenanceExtraRead(want.page, probe.maintenances),
    ]),
    ([startTies, updateTies, starts, maintenances]) => ({
      ties: [...startTies, ...updateTies],
      months,
      starts,
      maintenances,
    }),
  );
};

/** The ids `want` can show that the probe alone names (ties at the last place come with the extra read). */
const probedIds = (want: StateWanted, probe: Probe): string[] => [
  ...new Set([
    ...probe.open,
    ...probe.byStart.map(([id]) => id),
    ...probe.byUpdate.map(([id]) => id),
    ...want.changed,
  ]),
];

type Docs = Readonly<{ incidents: (string | null)[]; maintenances: (string | null)[] }>;

const docsRead = (
  want: StateWanted,
  ids: Readonly<{ incidents: string[]; maintenances: string[] }>,
): Read<Docs> => {
  const keys = pageStateKeys(want.page);
  const many = (key: string, fields: readonly string[]) =>
    fields.length === 0 ? known([]) : hashGetMany(key, fields);
  return mapRead(
    tupleRead([many(keys.stateIncidents, ids.incidents), many(keys.stateMaintenances, ids.maintenances)]),
    ([incidents, maintenances]) => ({ incidents, maintenances }),
  );
};

/** The document without its incidents and maintenances: enough for what a page's monitors need read. */
const coreOf = (probe: Probe): PageState | null =>
  decodePage({ core: probe.core, updated: probe.updated, incidents: {}, maintenances: {} })?.state ?? null;

const byId = (ids: readonly string[], texts: readonly (string | null)[]): Record<string, string | null> =>
  Object.fromEntries(ids.map((id, n) => [id, texts[n] ?? null]));

/**
 * The render states of `wanted`, in order, in two round trips for them all (a third only for ties
 * at the last shown place, or a page written by an earlier release); `alongside` is read in the
 * first, `perPage` (what a page's document names: its monitors) in the second.
 */
export const loadRenderStates = async <A, P>(
  redis: RedisClient,
  /** `tag`: the partition of every page wanted (its reads go as script calls, partitionReads.ts). */
  { tag, wanted }: Readonly<{ tag: string; wanted: readonly StateWanted[] }>,
  alongside: Read<A>,
  perPage: (state: PageState | null, index: number) => Read<P>,
): Promise<{ states: RenderState[]; alongside: A; perPage: P[] }> => {
  const results: RenderState[] = [];
  // Each read of a page keeps the page's index (i) and what it needs next with its result.
  const [wholes, probed, along] = await runPartitionRead(
    redis,
    tag,
    tupleRead([
      listRead(wanted.map((want) => (want.whole ? wholeRead(want) : known(null)))),
      listRead(
        wanted.flatMap((want, i) =>
          want.whole ? [] : [mapRead(probeRead(want), (probe) => ({ i, want, probe }))],
        ),
      ),
      alongside,
    ]),
  );
  for (const [i, whole] of wholes.entries()) if (whole) results[i] = whole;
  // An index that does not cover every incident: the page is read whole after all.
  const covered = (probe: Probe) =>
    probe.stored === probe.indexed && probe.maintenances.stored === probe.maintenances.indexed;
  const indexed = probed.filter(({ probe }) => covered(probe));
  const unindexed = probed.filter(({ probe }) => !covered(probe));
  const early = new Map<number, PageState | null>([
    ...wholes.flatMap((whole, i) => (whole ? [[i, whole.state] as const] : [])),
    ...indexed.map(({ i, probe }) => [i, coreOf(probe)] as const),
  ]);
  const [fallbacks, firsts, earlyReads] = await runPartitionRead(
    redis,
    tag,
    tupleRead([
      listRead(unindexed.map(({ i, want }) => mapRead(wholeRead(want), (fallback) => ({ i, fallback })))),
      listRead(
        indexed.map((page) => {
          const firstIds = {
            incidents: probedIds(page.want, page.probe),
            maintenances: probedMaintenanceIds(wantedMaintenances(page.want), page.probe.maintenances),
          };
          return mapRead(
            tupleRead([extraRead(page.want, page.probe), docsRead(page.want, firstIds)]),
            ([extra, firstDocs]) => ({ ...page, extra, firstIds, firstDocs }),
          );
        }),
      ),
      listRead([...early].map(([i, state]) => mapRead(perPage(state, i), (read) => ({ i, read })))),
    ]),
  );
  for (const { i, fallback } of fallbacks) results[i] = fallback;
  const [withTies, lateReads] = await runPartitionRead(
    redis,
    tag,
    tupleRead([
      listRead(
        firsts.map((page) => {
          const beyond = (ties: readonly string[], first: readonly string[]) => {
            const known = new Set(first);
            return [...new Set(ties)].filter((id) => !known.has(id));
          };
          const tieIds = {
            incidents: beyond(page.extra.ties, page.firstIds.incidents),
            maintenances: beyond(page.extra.maintenances.ties, page.firstIds.maintenances),
          };
          return mapRead(docsRead(page.want, tieIds), (tieDocs) => ({ ...page, tieIds, tieDocs }));
        }),
      ),
      listRead(
        fallbacks.map(({ i, fallback }) => mapRead(perPage(fallback.state, i), (read) => ({ i, read }))),
      ),
    ]),
  );
  for (const { i, want, probe, extra, firstIds, firstDocs, tieIds, tieDocs } of withTies) {
    const decoded = decodePage({
      core: probe.core,
      updated: probe.updated,
      incidents: byId(
        [...firstIds.incidents, ...tieIds.incidents],
        [...firstDocs.incidents, ...tieDocs.incidents],
      ),
      maintenances: byId(
        [...firstIds.maintenances, ...tieIds.maintenances],
        [...firstDocs.maintenances, ...tieDocs.maintenances],
      ),
    });
    results[i] = {
      state: decoded?.state ?? null,
      incidentMonths: new Map(extra.months.map((month, n) => [month, extra.starts[n] ?? []] as const)),
      maintenanceLists: storedListsOf(wantedMaintenances(want), probe.maintenances, extra.maintenances),
    };
  }
  const pages: P[] = [];
  for (const { i, read } of [...earlyReads, ...lateReads]) pages[i] = read;
  return { states: results, alongside: along, perPage: pages };
};
