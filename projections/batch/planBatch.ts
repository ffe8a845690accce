// Plans one batch (pure): its events and what was loaded for them in, the writes that project
// them out. The projector (src/projector) loads the inputs, and commitWrites applies the writes
// atomically with the checkpoint.
import { must } from '../../src/shared/must.ts';
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { putPageState, putUpdatedAt } from '../pageState/writes.ts';
import { formatMonitorOfPage } from '../store/control/codec.ts';
import { announceChecks } from '../embed/writes.ts';
import type { RenderSet } from '../store/control/writes.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { evolveBatch, type EvolvedBatch, type LoadedHeads } from './evolveBatch.ts';
import type { DeadLetter } from '../types.ts';
import { planBackfill, type BackfillSpan } from '../timeline/planBackfill.ts';
import { planDomains } from '../domains/planDomains.ts';
import { isLate, planChecks, type LateSpan, type MonitorChecks } from '../timeline/planChecks.ts';
import { slaMarks } from './slaMarks.ts';

export type BatchInputs = LoadedHeads &
  Readonly<{
    /** For each monitor with a late check: the recent checks and failures around it. */
    spans: ReadonlyMap<number, LateSpan>;
    /** For each monitor with checks older than the recent ones kept: the log around them. */
    backfills?: ReadonlyMap<number, BackfillSpan>;
    /** Pages whose stored document is still of the single-document layout (docs/read-models.md). */
    legacyPages?: ReadonlySet<string>;
  }>;

export type BatchPlan = Readonly<{
  writes: WriteOp[];
  deadLetters: DeadLetter[];
  /** A page's custom-domain claim was written: the API processes are told once committed. */
  domainsChanged: boolean;
  /**
   * The pages whose readers must see this batch at once: a monitor's status or failure timeline
   * changed, or an event other than a check (incidents, maintenance, pages).
   */
  urgent: ReadonlySet<string>;
  /** The pages whose monitors got checks: their assembled answers moved (the edge purges them). */
  checked: ReadonlySet<string>;
  /** Some page's SLA summaries must be computed again (renderSla). */
  slaMarked: boolean;
  /** The render marks the batch set (the same as its writes add to the render sets). */
  marks: readonly (readonly [RenderSet, string])[];
}>;

export const monitorChecks = (batch: EvolvedBatch): MonitorChecks[] =>
  [...batch.checks].map(([monitorId, checks]) => ({
    monitorId,
    head: batch.heads.get(monitorId) ?? null,
    checks,
  }));

export class SpanNotLoaded extends Error {
  override readonly name = 'SpanNotLoaded';
}

export const planBatch = (
  tag: string,
  events: readonly ProjectedEvent[],
  inputs: BatchInputs,
  now: number,
): BatchPlan =>
  planEvolvedBatch({ tag, events, evolved: evolveBatch(tag, events, inputs, now), inputs, now });

/**
 * The second half of planBatch, given the first (`batch` = evolveBatch of the same events and
 * inputs, not used since): the loader evolves the batch to find late checks, and planning
 * goes on from there instead of evolving every event again.
 */
export const planEvolvedBatch = ({
  tag,
  events,
  evolved: batch,
  inputs,
  now,
}: Readonly<{
  tag: string;
  events: readonly ProjectedEvent[];
  evolved: EvolvedBatch;
  inputs: BatchInputs;
  now: number;
}>): BatchPlan => {
  const writes = batch.writes;
  const urgent = new Set(events.flatMap((e) => (e.type === 'check.recorded' ? [] : [e.page])));
  const changedTimelines = new Set<number>();
  const checked = new Set<string>();
  for (const m of monitorChecks(batch)) {
    const span = isLate(m) ? inputs.spans.get(m.monitorId) : undefined;
    if (isLate(m) && span === undefined) throw new SpanNotLoaded(`monitor ${m.monitorId} has late checks`);
    const backfill = inputs.backfills?.get(m.monitorId);
    const plan =
      backfill !== undefined && m.head !== null
        ? planBackfill(tag, { ...m, head: m.head }, backfill, now)
        : planChecks(tag, m, span, now);
    writes.push(...plan.writes);
    const slug = must(batch.pageOf.get(m.monitorId), `the page of monitor ${String(m.monitorId)}`);
    checked.add(slug);
    if (plan.timelineChanged) {
      changedTimelines.add(m.monitorId);
      batch.mark('dirtyAvailability', formatMonitorOfPage({ slug, monitorId: m.monitorId }));
    }
    if (plan.timelineChanged || plan.statusChanged) {
      batch.mark('dirty', slug);
      urgent.add(slug);
    }
  }
  // Checks that change no status render nothing: what they move is assembled when read, and this
  // tells the API processes' caches and live streams (inside the commit, as a render would). A
  // page rendered right after the batch (urgent) announces itself with its render instead.
  for (const slug of checked) if (!urgent.has(slug)) writes.push(announceChecks(tag, slug));
  const slaWrites = slaMarks(batch, { tag, events, before: inputs.states, changedTimelines, now });
  writes.push(...slaWrites);
  const deleted = new Set(events.flatMap((e) => (e.type === 'page.deleted' ? [e.page] : [])));
  for (const slug of batch.changed) {
    const state = batch.states.get(slug);
    if (!state) continue;
    const how = { wiped: deleted.has(slug), legacy: inputs.legacyPages?.has(slug) ?? false };
    writes.push(...putPageState({ tag, slug }, inputs.states.get(slug) ?? null, state, how));
  }
  // Checks only reach pages already in the page set (a page joins it with its other events).
  const configured = new Set(events.flatMap((e) => (e.type === 'check.recorded' ? [] : [e.page])));
  for (const slug of new Set(events.map((e) => e.page))) {
    // A deleted page leaves the page set when its last render deletes its outputs: the clock
    // never renders it again.
    const state = batch.states.get(slug);
    if (state && !state.deleted && configured.has(slug)) batch.mark('pages', slug);
    const at = batch.updated.get(slug);
    if (at) writes.push(putUpdatedAt({ tag, slug }, at));
  }
  const domains = planDomains(tag, events, batch.states);
  writes.push(...domains);
  return {
    writes,
    deadLetters: batch.deadLetters,
    domainsChanged: domains.length > 0,
    urgent,
    checked,
    slaMarked: slaWrites.length > 0,
    marks: batch.marks,
  };
};
