// The first half of planning a batch (pure): page documents evolve in memory, checks are grouped
// per monitor (dropping those of monitors that are gone), removed monitors' models are deleted,
// and what must be rendered again is marked.
import { ownedPut } from '../pageState/foldPageState.ts';
import { evolvePageStateWith } from '../pageState/pageState.ts';
import type { Check } from '../timeline/planChecks.ts';
import type { DeadLetter, PageState } from '../types.ts';
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { deleteAvailability } from '../availability/storage.ts';
import { deleteBuckets } from '../buckets/writes.ts';
import { formatItemOfPage, formatMonitorOfPage } from '../store/control/codec.ts';
import { markForRender, type RenderSet } from '../store/control/writes.ts';
import type { WriteOp } from '../store/writeOps.ts';
import type { TimelineHead } from '../timeline/codec.ts';
import { deleteTimeline } from '../timeline/writes.ts';

/** What the batch's events found in Redis before it: page documents and timeline heads. */
export type LoadedHeads = Readonly<{
  states: ReadonlyMap<string, PageState | null>;
  heads: ReadonlyMap<number, TimelineHead | null>;
}>;

export type EvolvedBatch = Readonly<{
  states: Map<string, PageState | null>;
  /** Pages whose document changed. */
  changed: Set<string>;
  /** Per page, the latest `at` of its events so far (`pg:<slug>:updated`). */
  updated: Map<string, number>;
  checks: Map<number, Check[]>;
  /** Timeline heads, null for a monitor removed in the batch (it starts afresh). */
  heads: Map<number, TimelineHead | null>;
  pageOf: Map<number, string>;
  writes: WriteOp[];
  mark: (set: RenderSet, member: string) => void;
  /** What `mark` marked, in order: the render right after the batch takes them from here. */
  marks: (readonly [RenderSet, string])[];
  deadLetters: DeadLetter[];
}>;

// An incident or maintenance event marks only its item (its lists are updated in place); page
// events, whole lists.
const pageEventMarks = (event: ProjectedEvent): RenderSet[] =>
  event.type.startsWith('page.') ? ['dirtyIncidents', 'dirtyMaintenances'] : [];

export const evolveBatch = (
  tag: string,
  events: readonly ProjectedEvent[],
  loaded: LoadedHeads,
  now: number,
): EvolvedBatch => {
  const marked = new Set<string>();
  const dirty = new Set<string>();
  // Only the batch's last state of each page is kept: its collections are copied once per batch,
  // not once per event (a page of 5,000 incidents would copy them all for each update).
  const evolvePageState = evolvePageStateWith(ownedPut());
  const batch: EvolvedBatch = {
    states: new Map(loaded.states),
    changed: new Set(),
    updated: new Map(
      [...loaded.states].flatMap(([slug, s]) => (s?.updatedAt ? [[slug, s.updatedAt] as const] : [])),
    ),
    checks: new Map(),
    heads: new Map(loaded.heads),
    pageOf: new Map(),
    writes: [],
    mark: (set, member) => {
      const id = `${set}\u0000${member}`;
      if (marked.has(id)) return;
      marked.add(id);
      batch.marks.push([set, member]);
      batch.writes.push(markForRender(tag, set, member));
    },
    marks: [],
    deadLetters: [],
  };
  for (const event of events) {
    const slug = event.page;
    const atMs = event.at;
    const state = batch.states.get(slug) ?? null;
    if (event.type === 'check.recorded') {
      const { monitor_id: id, status, response_time_ms: rt } = event.data;
      if (!state || state.deleted || !state.monitors[String(id)]) continue; // monitor gone: nothing to show
      const list = batch.checks.get(id) ?? [];
      batch.checks.set(id, list);
      list.push({ at: atMs, position: BigInt(event.position), status, responseTimeMs: rt });
      batch.pageOf.set(id, slug);
    } else {
      let next: PageState | null;
      try {
        next = evolvePageState(state, event);
      } catch (error) {
        batch.deadLetters.push({ position: event.position, error: (error as Error).message });
        continue;
      }
      batch.states.set(slug, next);
      batch.changed.add(slug);
      const gone = Object.keys(state?.monitors ?? {}).filter((id) => !next?.monitors[id]);
      for (const id of gone.map(Number)) {
        batch.checks.delete(id);
        const monitor = { tag, monitorId: id };
        batch.writes.push(
          deleteTimeline(monitor, batch.heads.get(id) ?? null),
          ...deleteBuckets(monitor, now),
        );
        batch.heads.set(id, null);
        batch.writes.push(deleteAvailability({ tag, slug }, id));
      }
      if (event.type === 'monitor.configured')
        batch.mark('dirtyAvailability', formatMonitorOfPage({ slug, monitorId: event.data.monitor_id }));
      for (const set of pageEventMarks(event)) batch.mark(set, slug);
      if (event.type === 'incident.opened' || event.type === 'incident.updated')
        batch.mark('dirtyIncidentDocs', formatItemOfPage({ slug, id: event.data.incident_id }));
      if (event.type.startsWith('maintenance.') && 'maintenance_id' in event.data)
        batch.mark('dirtyMaintenanceDocs', formatItemOfPage({ slug, id: event.data.maintenance_id }));
    }
    if (atMs > (batch.updated.get(slug) ?? 0)) batch.updated.set(slug, atMs);
    // Checks render a page only when they change a monitor's status (planBatch decides that).
    if (event.type !== 'check.recorded' && !dirty.has(slug)) batch.mark('dirty', slug); // once per page
    dirty.add(slug);
  }
  return batch;
};
