// Renders a page's ready-to-send outputs from its document and its monitors' aggregates.
// Pure given its inputs: the same log and clock always give the same bytes (rebuild equality).
import {
  nextAvailabilityChange,
  periods as availabilityPeriods,
  renderAvailability,
} from '../../projections/render/availability.ts';
import { renderCharts, renderMinuteData } from '../../projections/render/charts.ts';
import { renderEmbedParts } from '../../projections/render/embed.ts';
import { incidentDailyCounts, monthsOfIncident } from '../../projections/render/dailyCounts.ts';
import { incidentJson } from '../../projections/render/incidentJson.ts';
import { pageUrl } from '../../projections/render/pageUrl.ts';
import { renderSnippets } from '../../projections/render/snippets.ts';
import { overallStatus } from '../../projections/figures/overallStatus.ts';
import { maintenanceStatus, nextMaintenanceChange } from '../../projections/render/maintenanceJson.ts';
import type { MonitorSnapshot, OverallStatus, PageState, UrlSettings } from '../../projections/types.ts';
import { pageKeys, partitionKeys } from '../readModels/keys.ts';
import { toBytes } from '../readModels/bytes.ts';
import type { CommandList } from './commands.ts';
import { renderMaintenances } from './renderMaintenances.ts';
import { renderSubscriptions } from './renderSubscriptions.ts';

export type RenderScope = Readonly<{
  incidents: boolean;
  maintenances: boolean;
  availability: ReadonlySet<number> | 'all';
}>;

export type RenderInput = Readonly<{
  tag: string;
  slug: string;
  state: PageState | null;
  updatedAt: number | null;
  monitors: readonly MonitorSnapshot[];
  maintenanceMonths: readonly string[]; // month keys written by the previous render
  existingKeys: readonly string[]; // for a deleted page: every key it still has
  now: number;
  urls: UrlSettings;
}>;

const json = (value: unknown) => JSON.stringify(value);

const accessDoc = (state: PageState | null) =>
  state === null || state.deleted
    ? { state: 'deleted', plan: null, token_hash: null }
    : {
        state: state.settings.blocked ? 'blocked' : 'active',
        plan: state.settings.plan,
        token_hash: state.settings.tokenHash,
        title: state.settings.title,
      };

const pageOverall = (state: PageState, monitors: readonly MonitorSnapshot[], now: number): OverallStatus =>
  overallStatus(
    monitors,
    Object.values(state.maintenances).some((m) => maintenanceStatus(m, now) === 'in_progress'),
  );

/** Appends the render's writes to `out`; returns when the page next changes by the clock alone. */
export const renderPage = (out: CommandList, input: RenderInput, scope: RenderScope): number | null => {
  const { tag, slug, state, now, monitors } = input;
  const keys = pageKeys(tag, slug);
  out.push('SET', keys.access, json(accessDoc(state)));
  if (state === null || state.deleted) {
    const keep = new Set([keys.access, keys.state, keys.updated]);
    for (const key of input.existingKeys) if (!keep.has(key)) out.push('DEL', key);
    out.push('PUBLISH', partitionKeys(tag).changes, slug); // live streams of the page end
    return null;
  }
  const overall = pageOverall(state, monitors, now);
  const statusPageUrl = pageUrl(state.settings, input.urls);
  out.push('SET', keys.overall, overall);
  out.push('SET', keys.charts, toBytes(json(renderCharts({ monitors: [...monitors], overall }, now))));
  out.push('SET', keys.minute, toBytes(json(renderMinuteData([...monitors], now))));
  const embed = renderEmbedParts({
    slug,
    pageUrl: statusPageUrl,
    overall,
    updatedAt: input.updatedAt,
    monitors: [...monitors],
    incidents: Object.values(state.incidents),
    nowMs: now,
  });
  // Each changed part gets a revision, and the change is announced to the live streams (VERSIONED).
  const embedParts = Object.entries({ access: json(accessDoc(state)), ...embed }).flat();
  out.push('VERSIONED', keys.embed, partitionKeys(tag).changes, slug, now, ...embedParts);
  const snippets = renderSnippets({ slug, baseUrl: input.urls.baseUrl, statusPageUrl, overall });
  out.push('SET', keys.snippets, toBytes(json(snippets)));
  renderSubscriptions(out, {
    keys,
    state,
    pageUrl: statusPageUrl,
    baseUrl: input.urls.baseUrl,
    overall,
    monitors,
    updatedAt: input.updatedAt ?? now,
    now,
    feeds: scope.incidents || scope.maintenances,
  });

  if (scope.incidents) renderIncidents(out, keys, state);
  if (scope.maintenances) renderMaintenances(out, keys, state, input.maintenanceMonths, now);
  for (const monitor of monitors) {
    if (scope.availability !== 'all' && !scope.availability.has(monitor.id)) continue;
    const fields = availabilityPeriods.flatMap((period) => [
      period,
      toBytes(json(renderAvailability(monitor, period, now))),
    ]);
    out.push('DEL', keys.availability(monitor.id));
    out.push('HSET', keys.availability(monitor.id), ...fields);
  }
  return nextClockChange(state, monitors, now);
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

const renderIncidents = (out: CommandList, keys: ReturnType<typeof pageKeys>, state: PageState) => {
  const docs = Object.values(state.incidents);
  const months = new Set(docs.flatMap(monthsOfIncident));
  out.push(
    'DEL',
    keys.incidentList,
    keys.incidentDocs,
    keys.incidentCounts,
    ...[...months].map(keys.incidentMonth),
  );
  for (const doc of docs) {
    const score = -doc.startedAt;
    out.push('HSET', keys.incidentDocs, doc.id, json(incidentJson(doc)));
    out.push('ZADD', keys.incidentList, score, doc.id);
    for (const month of monthsOfIncident(doc)) out.push('ZADD', keys.incidentMonth(month), score, doc.id);
  }
  for (const month of months)
    out.push('HSET', keys.incidentCounts, month, toBytes(json(incidentDailyCounts(docs, month))));
};
