// Loads what planning a batch needs (I/O): the page documents and timeline heads its events
// touch, in one round trip, then for monitors with late checks the span around them, in one more;
// for checks older than the recent ones Redis keeps, the log around them (loadBackfill).
import type { PageState } from '../../projections/types.ts';
import type { ProjectedEvent } from '../events/storedEvent.ts';
import { pageForBatchRead, type TouchedDocs } from '../readModels/pageState/reads.ts';
import { listRead, mapRead, tupleRead } from '../store/reads.ts';
import { runPartitionRead } from '../store/partitionReads.ts';
import type { TimelineHead } from '../../projections/timeline/codec.ts';
import { failuresRead, headRead, recentAroundRead } from '../readModels/timeline/reads.ts';
import { recentCutoff } from '../../projections/timeline/retention.ts';
import { must } from '../shared/must.ts';
import type { RedisClient } from '../store/redisClient.ts';
import { evolveBatch, type EvolvedBatch } from '../../projections/batch/evolveBatch.ts';
import { monitorChecks, type BatchInputs } from '../../projections/batch/planBatch.ts';
import { loadBackfill, type ProjectedLog } from './loadBackfill.ts';
import type { BackfillSpan } from '../../projections/timeline/planBackfill.ts';
import {
  earliestCheck,
  FAILURE_LOOKBACK_MS,
  isLate,
  type LateSpan,
  type MonitorChecks,
} from '../../projections/timeline/planChecks.ts';

/** Per page of the batch, the incidents and maintenances its events touch. */
const touchedDocs = (events: readonly ProjectedEvent[]): Map<string, TouchedDocs> => {
  const pages = new Map<string, { incidents: Set<string>; maintenances: Set<string> }>();
  for (const e of events) {
    const page = pages.get(e.page) ?? { incidents: new Set<string>(), maintenances: new Set<string>() };
    pages.set(e.page, page);
    if (e.type === 'incident.opened' || e.type === 'incident.updated') page.incidents.add(e.data.incident_id);
    else if (e.type.startsWith('maintenance.') && 'maintenance_id' in e.data)
      page.maintenances.add(e.data.maintenance_id);
  }
  return new Map(
    [...pages].map(([slug, p]) => [slug, { incidents: [...p.incidents], maintenances: [...p.maintenances] }]),
  );
};

/** A partition's batch of events at `now`; `log` (the log as projected before it) for backfills. */
type BatchToLoad = Readonly<{
  tag: string;
  events: readonly ProjectedEvent[];
  now: number;
  log?: ProjectedLog | undefined;
}>;

/** A monitor's checks of which some are late: its timeline has a head, with later checks. */
type LateChecks = MonitorChecks & Readonly<{ head: TimelineHead }>;
const isLateChecks = (m: MonitorChecks): m is LateChecks => m.head !== null && isLate(m);

/** The inputs, and the batch evolved from them (planEvolvedBatch goes on from it). */
type LoadedBatch = Readonly<{ inputs: BatchInputs; evolved: EvolvedBatch }>;

export const loadBatchInputs = async (
  redis: RedisClient,
  { tag, events, now, log }: BatchToLoad,
): Promise<LoadedBatch> => {
  const touched = touchedDocs(events);
  const pages = [...touched.keys()];
  // Heads of the monitors checked, and of those removed: a head names its recent checks' sets.
  const monitorIds = [
    ...new Set(
      events.flatMap((e) =>
        e.type === 'check.recorded' || e.type === 'monitor.removed' ? [e.data.monitor_id] : [],
      ),
    ),
  ];
  const [states, heads] = await runPartitionRead(
    redis,
    tag,
    tupleRead([
      listRead([...touched].map(([slug, docs]) => pageForBatchRead({ tag, slug }, docs))),
      listRead(monitorIds.map((monitorId) => headRead({ tag, monitorId }))),
    ]),
  );
  const loaded = {
    states: new Map<string, PageState | null>(pages.map((slug, i) => [slug, states[i]?.state ?? null])),
    heads: new Map<number, TimelineHead | null>(monitorIds.map((id, i) => [id, heads[i] ?? null])),
  };
  // A deleted page's monitors go with it: one more round trip, only in a batch that deletes a page.
  const ofDeletedPages = events.flatMap((e) =>
    e.type === 'page.deleted' ? Object.keys(loaded.states.get(e.page)?.monitors ?? {}).map(Number) : [],
  );
  const orphans = [...new Set(ofDeletedPages)].filter((id) => !loaded.heads.has(id));
  const orphanHeads = await runPartitionRead(
    redis,
    tag,
    listRead(orphans.map((monitorId) => headRead({ tag, monitorId }))),
  );
  orphans.forEach((id, i) => loaded.heads.set(id, orphanHeads[i] ?? null));
  // Which monitors have late checks depends on the batch itself (a monitor removed and added
  // again starts afresh), so the pure first half of planning runs here too.
  const evolved = evolveBatch(tag, events, loaded, now);
  const late = monitorChecks(evolved).filter(isLateChecks);
  // Older than the recent checks Redis keeps: read from the log around them.
  const isDeep = (m: LateChecks) => earliestCheck(m.checks).at < recentCutoff(m.head);
  const backfills = new Map<number, BackfillSpan>();
  if (log !== undefined)
    for (const m of late.filter(isDeep)) {
      const page = must(evolved.pageOf.get(m.monitorId), 'the page of a checked monitor');
      backfills.set(m.monitorId, await loadBackfill(log, page, m));
    }
  const spans = await runPartitionRead(
    redis,
    tag,
    listRead(
      late.map((m) => {
        const monitor = { tag, monitorId: m.monitorId };
        const from = earliestCheck(m.checks).at;
        return mapRead(
          tupleRead([
            recentAroundRead(monitor, from, m.head),
            failuresRead(monitor, from - FAILURE_LOOKBACK_MS),
          ]),
          ([recent, failures]): [number, LateSpan] => [m.monitorId, { recent, failures }],
        );
      }),
    ),
  );
  const legacyPages = new Set(pages.filter((_, i) => states[i]?.legacy === true));
  return { inputs: { ...loaded, spans: new Map(spans), backfills, legacyPages }, evolved };
};
