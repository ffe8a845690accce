// Renders pages of one partition: load their documents and aggregates (I/O), render them (pure),
// and commit the outputs under the checkpoint the render read them at: if the partition moved on
// meanwhile, the newer runner renders instead.
import type { RedisClient } from '../store/redisClient.ts';
import type {
  MonitorConfig,
  MonitorSnapshot,
  MonitorStatus,
  PageState,
  UrlSettings,
} from '../../projections/types.ts';
import { checkpointRead } from '../store/control/reads.ts';
import { clearRenderMark, scheduleDue, type RenderSet } from '../../projections/store/control/writes.ts';
import { maintenanceMonthsRead } from '../readModels/lists/reads.ts';
import { renderedKeysRead } from '../readModels/pageOutputs.ts';
import type { Quarantine } from '../../projections/quarantine/codec.ts';
import { quarantinePage, releasePage } from '../../projections/quarantine/storage.ts';
import { quarantineRead } from '../readModels/quarantine/reads.ts';
import { commitWrites } from '../store/control/commitWrites.ts';
import { known, listRead, mapRead, runRead, tupleRead, type Read } from '../store/reads.ts';
import { loadRenderStates } from './loadRenderStates.ts';
import { overallSpanRead } from './overallSpanRead.ts';
import type { WriteOp } from '../../projections/store/writeOps.ts';
import { monitorSnapshotRead, monitorStatusRead } from '../readModels/series/monitorSnapshotRead.ts';
import {
  clockParts,
  renderPage,
  rendersMaintenances,
  type RenderScope,
} from '../../projections/pageRender/renderPage.ts';
import { must } from '../shared/must.ts';
import {
  activationKeysOf,
  purgeKeysOf,
  purgeWrites,
  rendersPageEvent,
  type EdgePurgeQueue,
} from './renderPurgeKeys.ts';
import { announceSettings } from '../../projections/embed/writes.ts';

export type PageRender = Readonly<{
  slug: string;
  scope: RenderScope;
  /** The render marks this render consumes. */
  clear: readonly (readonly [set: RenderSet, member: string])[];
}>;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const byId = (a: MonitorConfig, b: MonitorConfig) => a.id - b.id;
const isGone = (state: PageState | null) => state === null || state.deleted;

type Monitors = Readonly<{ series: MonitorSnapshot[] | null; monitors: readonly MonitorStatus[] }>;

/** A page the render moved into quarantine (it was not there before). */
export type QuarantineNotice = Readonly<{ tag: string; slug: string } & Quarantine>;

/** Pages per commit: a tick renders every page of the partition, and one script call must stay small. */
const RENDER_CHUNK_PAGES = 20;

const chunksOf = <T>(items: readonly T[], size: number): T[][] =>
  items.length === 0
    ? [[]]
    : Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Renders `pages` at `now` and commits them, RENDER_CHUNK_PAGES at a time, `extra` with the last;
 * returns false when fenced (the checkpoint moved). A page whose render throws is quarantined
 * instead (its marks consumed, so it is not retried until its next event) and the others go on.
 */
export const renderPages = async (
  redis: RedisClient,
  render: Readonly<{ tag: string; pages: readonly PageRender[]; now: number; urls: UrlSettings }>,
  options: Readonly<{
    /** The partition's checkpoint when the caller just committed it (else it is read). */
    checkpoint?: string;
    extra?: readonly WriteOp[];
    onQuarantine?: (notice: QuarantineNotice) => void;
    /**
     * Queue the edge purges of each chunk with its commit: `events`, what the marks it consumes
     * changed; `all`, every page (a rebuild's render, purged once its version is active).
     */
    purge?: Readonly<{ mode: 'events' | 'all'; edge: EdgePurgeQueue }>;
  }> = {},
): Promise<boolean> => {
  const { tag, pages, now, urls } = render;
  const { extra = [], onQuarantine, purge } = options;
  if (pages.length === 0 && extra.length === 0) return true;
  // Read with the first chunk's documents: the checkpoint the commits are fenced by, quarantines.
  type Control = readonly [checkpoint: string | null, quarantined: ReadonlyMap<string, Quarantine>];
  let control: Control | null = null;
  const chunks = chunksOf(pages, RENDER_CHUNK_PAGES);
  for (const [c, chunk] of chunks.entries()) {
    const refs = chunk.map(({ slug }) => ({ tag, slug }));
    const wanted = (renders: readonly PageRender[]) =>
      renders.map(({ slug, scope }) => ({
        page: { tag, slug },
        whole: scope.incidents || scope.maintenances,
        changed: [...(scope.incidentIds ?? [])],
        changedMaintenances: [...(scope.maintenanceIds ?? [])],
        now,
      }));
    const controlRead: Read<Control> = control
      ? known(control)
      : tupleRead([
          options.checkpoint === undefined ? checkpointRead(tag) : known(options.checkpoint),
          quarantineRead(tag),
        ]);
    // Only availability and the next clock change need the monitors' series; status needs heads.
    const monitorsOf =
      (renders: readonly PageRender[]) =>
      (state: PageState | null, i: number): Read<Monitors> => {
        const configs = state && !state.deleted ? Object.values(state.monitors).sort(byId) : [];
        return clockParts(must(renders[i], 'a page of the chunk').scope)
          ? mapRead(listRead(configs.map((m) => monitorSnapshotRead(tag, m, now))), (series) => ({
              series,
              monitors: series,
            }))
          : mapRead(listRead(configs.map((m) => monitorStatusRead(tag, m))), (monitors) => ({
              series: null,
              monitors,
            }));
      };
    const first = await loadRenderStates(
      redis,
      { tag, wanted: wanted(chunk) },
      tupleRead([
        controlRead,
        listRead(refs.map((page) => maintenanceMonthsRead(page))),
        listRead(refs.map((page) => overallSpanRead(page, now))),
      ]),
      monitorsOf(chunk),
    );
    const [[checkpoint, quarantined], monthsLoaded, spans] = first.alongside;
    control = [checkpoint, quarantined];
    if (checkpoint === null) return false;
    // After a failed render, lists are rendered whole: the change that failed is in no mark now.
    const widens = ({ slug, scope }: PageRender) =>
      quarantined.get(slug)?.kind === 'render' &&
      (scope.incidentIds !== undefined || scope.maintenanceIds !== undefined);
    const renders = chunk.map((render) =>
      widens(render)
        ? { ...render, scope: { ...render.scope, incidents: true, maintenances: true } }
        : render,
    );
    const loaded = chunk.some(widens)
      ? await loadRenderStates(redis, { tag, wanted: wanted(renders) }, known(null), monitorsOf(renders))
      : first;
    const writes: WriteOp[] = [];
    for (const [i, render] of renders.entries()) {
      const page = { tag, slug: render.slug };
      const { state, incidentMonths, maintenanceLists } = must(
        loaded.states[i],
        'the document of a page of the chunk',
      );
      const { series, monitors } = must(loaded.perPage[i], 'the monitors of a page of the chunk');
      const maintenanceMonths = must(monthsLoaded[i], 'the maintenance months of a page of the chunk');
      const deleted = isGone(state);
      // A deleted page loses its outputs but its document and access (which says it is deleted).
      const stale = deleted ? await runRead(redis, renderedKeysRead(page, maintenanceMonths)) : [];
      try {
        const plan = renderPage(
          {
            page,
            state,
            monitors,
            series,
            maintenanceMonths,
            maintenanceLists,
            incidentMonths,
            staleKeys: stale,
            overallSpan: must(spans[i], 'the overall span of a page of the chunk'),
            now,
            urls,
          },
          render.scope,
        );
        // Announced before the render's own messages: no API process answers from what it cached
        // for the page's previous settings (a page turned private must not be served public once more).
        if (rendersPageEvent(render)) writes.push(announceSettings(tag, render.slug));
        writes.push(...plan.writes);
        // A partial render only knows the clock changes of what it rendered: it may bring the due
        // time forward but never push back one that a skipped part still needs.
        const full = deleted || (rendersMaintenances(render.scope) && render.scope.availability === 'all');
        const due = scheduleDue(tag, render.slug, plan.due, full ? 'exact' : 'earlier');
        if (due !== null) writes.push(due);
        // A render that works again ends a render quarantine; a skipped event stays reported.
        if (quarantined.get(render.slug)?.kind === 'render') writes.push(releasePage(tag, render.slug));
      } catch (error) {
        const q = {
          kind: 'render' as const,
          position: checkpoint,
          error: errorText(error),
          since: new Date(now).toISOString(),
        };
        // An event quarantine says more (the page misses an event): keep it.
        if (quarantined.get(render.slug)?.kind !== 'event') writes.push(quarantinePage(tag, render.slug, q));
        if (!quarantined.has(render.slug)) onQuarantine?.({ tag, slug: render.slug, ...q });
      }
      for (const [set, member] of render.clear) writes.push(clearRenderMark(tag, set, member));
    }
    if (c === chunks.length - 1) writes.push(...extra);
    const purges =
      purge === undefined
        ? []
        : purgeWrites(
            tag,
            purge.edge,
            purge.mode === 'all'
              ? activationKeysOf(renders.map((r, i) => [r.slug, loaded.states[i]?.state ?? null]))
              : purgeKeysOf(renders),
          );
    const fence = { tag, expected: checkpoint, next: null };
    if (!(await commitWrites(redis, fence, [...writes, ...purges]))) return false;
    if (purges.length > 0) purge?.edge.queued?.(tag);
  }
  return true;
};
