// Renders a page's ready-to-send outputs that change with events: status, embed, snippets,
// Statuspage documents, lists, availability. What moves with every check or minute (charts,
// minute data, rtm, upd) is assembled when read (docs/architecture.md). Pure given its inputs.
import {
  nextAvailabilityChange,
  periods as availabilityPeriods,
  renderAvailability,
} from '../availability/availability.ts';
import { renderEmbedParts } from '../embed/embed.ts';
import { pageUrl } from '../render/pageUrl.ts';
import { renderSnippets } from '../render/snippets.ts';
import { pageOverall } from './pageOverall.ts';
import { nextMaintenanceChange } from '../lists/maintenanceJson.ts';
import type { MonitorSnapshot, MonitorStatus, PageState, UrlSettings } from '../types.ts';
import { encodeAccess } from '../access/codec.ts';
import { putAccess } from '../access/storage.ts';
import { replaceAvailability } from '../availability/storage.ts';
import { partitionKeys } from '../store/control/keys.ts';
import { clearRenderMark } from '../store/control/writes.ts';
import { putEmbed, putOverall, putSnippets } from '../embed/writes.ts';
import type { OverallSpan } from '../embed/overallSpan.ts';
import type { PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';
import {
  renderChangedIncidents,
  renderChangedMaintenances,
  renderIncidents,
  renderMaintenances,
} from '../lists/renderLists.ts';
import type { StoredMaintenanceLists } from '../lists/storedMaintenanceLists.ts';
import { renderSubscriptions } from './renderSubscriptions.ts';

export type RenderScope = Readonly<{
  /** Every incident list and document (page events, a rebuild). */
  incidents: boolean;
  /** Else only these incidents changed: their documents, months and list places. */
  incidentIds?: ReadonlySet<string>;
  /** Every maintenance list and document (page events, a rebuild). */
  maintenances: boolean;
  /**
   * Else the lists follow these changed maintenances and the clock (a due page: maybe none
   * changed); undefined: the maintenance lists are not rendered.
   */
  maintenanceIds?: ReadonlySet<string>;
  availability: ReadonlySet<number> | 'all';
}>;

/** Whether a render of `scope` writes the maintenance lists (whole or in place). */
export const rendersMaintenances = (scope: RenderScope): boolean =>
  scope.maintenances || scope.maintenanceIds !== undefined;

type RenderInput = Readonly<{
  page: PageRef;
  state: PageState | null;
  monitors: readonly MonitorStatus[];
  /** The monitors' series, in the same order: read only when the scope needs them (needsSeries). */
  series: readonly MonitorSnapshot[] | null;
  maintenanceMonths: readonly string[]; // month keys written by the previous render
  /**
   * What the stored maintenance lists show, for an in-place render; null when `state` holds every
   * maintenance (read whole), which a render of the whole lists needs.
   */
  maintenanceLists: StoredMaintenanceLists | null;
  /** Per month of a changed incident (scope.incidentIds), its incidents per day. */
  incidentMonths: ReadonlyMap<string, readonly number[]>;
  /** For a deleted page: every key it has that must go. */
  staleKeys: readonly string[];
  /** The maintenance window boundaries around `now`: the instants the overall holds for. */
  overallSpan: OverallSpan;
  now: number;
  urls: UrlSettings;
}>;

/**
 * The page's writes, and when it next changes by the clock alone (null: never, or, for a render
 * of neither maintenances nor availability, nothing that could bring the scheduled time forward).
 */
type PageRenderPlan = Readonly<{ writes: WriteOp[]; due: number | null }>;

const json = (value: unknown) => JSON.stringify(value);

export const renderPage = (input: RenderInput, scope: RenderScope): PageRenderPlan => {
  const { page, state, now, monitors } = input;
  const writes: WriteOp[] = [putAccess(page, state)];
  const changes = partitionKeys(page.tag).changes;
  if (state === null || state.deleted) {
    if (input.staleKeys.length > 0) writes.push({ op: 'del', keys: input.staleKeys });
    writes.push({ op: 'publish', channel: changes, message: page.slug }); // its live streams end
    writes.push(clearRenderMark(page.tag, 'pages', page.slug)); // and the clock forgets it
    return { writes, due: null };
  }
  const overall = pageOverall(state, monitors, now);
  const statusPageUrl = pageUrl(state.settings, input.urls);
  writes.push(
    ...putOverall(page, overall, input.overallSpan),
    putEmbed(
      page,
      renderEmbedParts({
        slug: page.slug,
        pageUrl: statusPageUrl,
        overall,
        monitors: [...monitors],
        incidents: Object.values(state.incidents),
      }),
      { now, channel: changes, access: encodeAccess(state) },
    ),
    putSnippets(
      page,
      json(
        renderSnippets({
          slug: page.slug,
          baseUrl: input.urls.baseUrl,
          statusPageUrl,
          overall,
          locale: state.settings.locale,
        }),
      ),
    ),
  );
  const incidentsChanged = scope.incidents || (scope.incidentIds?.size ?? 0) > 0;
  const stored = input.maintenanceLists;
  // Lists kept in place: the changed maintenances, and (any render shows the page at `now`) those the
  // clock moved since the lists were rendered, before the due render of the next minute. null: the
  // lists are rendered whole, or not at all.
  const inPlace =
    !scope.maintenances && stored !== null
      ? renderChangedMaintenances(page, state, { ids: scope.maintenanceIds ?? new Set(), stored, now })
      : null;
  // What feeds show changes only with these.
  const feeds = incidentsChanged || rendersMaintenances(scope) || (inPlace?.length ?? 0) > 0;
  writes.push(
    ...renderSubscriptions({
      page,
      state,
      pageUrl: statusPageUrl,
      urls: input.urls,
      overall,
      monitors,
      now,
      feeds,
    }),
  );
  if (scope.incidents) writes.push(...renderIncidents(page, state));
  else if (scope.incidentIds)
    writes.push(...renderChangedIncidents(page, state, scope.incidentIds, input.incidentMonths));
  if (inPlace !== null) writes.push(...inPlace);
  else if (rendersMaintenances(scope))
    writes.push(...renderMaintenances(page, state, input.maintenanceMonths, now));
  for (const monitor of clockParts(scope) ? seriesOf(input) : []) {
    if (scope.availability !== 'all' && !scope.availability.has(monitor.id)) continue;
    const bodies = availabilityPeriods.map(
      (period) => [period, json(renderAvailability(monitor, period, now))] as const,
    );
    writes.push(...replaceAvailability(page, monitor.id, bodies));
  }
  // The due time follows the maintenances and the failure timelines: a render that touches
  // neither (checks that flip nothing, the minute tick) leaves the scheduled one standing, and one
  // of changed maintenances alone knows only theirs (it may bring the due time forward).
  if (clockParts(scope)) return { writes, due: nextClockChange(state, seriesOf(input), now) };
  return { writes, due: rendersMaintenances(scope) ? nextClockChange(state, [], now) : null };
};

/**
 * Whether a render of `scope` computes availability or the next clock change of the whole page:
 * it needs the monitors' series. A render of changed maintenances alone does not.
 */
export const clockParts = (scope: RenderScope): boolean =>
  scope.maintenances || scope.availability === 'all' || scope.availability.size > 0;

const seriesOf = (input: RenderInput): readonly MonitorSnapshot[] => {
  if (input.series === null) throw new Error("render needs the monitors' series but none were read");
  return input.series;
};

/** When the page's maintenances or availability next change with the clock alone. */
const nextClockChange = (
  state: PageState,
  monitors: readonly MonitorSnapshot[],
  now: number,
): number | null => {
  let due = Number.POSITIVE_INFINITY;
  for (const doc of Object.values(state.maintenances))
    due = Math.min(due, nextMaintenanceChange(doc, now) ?? due);
  for (const monitor of monitors) due = Math.min(due, nextAvailabilityChange(monitor, now));
  return Number.isFinite(due) ? due : null;
};
