// Incidents and maintenances in the shape of Statuspage's API v2 (incidents with
// incident_updates, newest update first; maintenances as incidents with impact "maintenance").
import { formatTimestamp } from '../../src/shared/time.ts';
import type { IncidentDoc, IncidentState, MaintenanceDoc, MonitorStatus } from '../types.ts';
import { maintenanceStatus } from '../lists/maintenanceJson.ts';
import { maintenanceUpdatedAt } from '../lists/maintenanceUpdatedAt.ts';
import { incidentImpact, type ComponentJson, type IncidentImpact } from './components.ts';

type UpdateStatus = IncidentState | 'scheduled' | 'in_progress' | 'completed';
type MaintenanceState = 'scheduled' | 'in_progress' | 'completed';

type IncidentUpdateJson = {
  id: string;
  status: UpdateStatus;
  body: string;
  incident_id: string;
  created_at: string;
  updated_at: string;
  display_at: string;
  affected_components: null;
  deliver_notifications: boolean;
  custom_tweet: null;
  tweet_id: null;
};

type SpIncidentJson = {
  id: string;
  name: string;
  status: IncidentState | MaintenanceState;
  created_at: string;
  updated_at: string;
  monitoring_at: string | null;
  resolved_at: string | null;
  impact: IncidentImpact | 'maintenance';
  shortlink: string;
  started_at: string;
  page_id: string;
  incident_updates: IncidentUpdateJson[];
  components: ComponentJson[];
  scheduled_for?: string;
  scheduled_until?: string;
};

export type ItemContext = Readonly<{
  slug: string;
  pageUrl: string;
  monitors: readonly MonitorStatus[]; // display order
  components: readonly ComponentJson[]; // the same monitors as components, same order
}>;

/** The page URL with a fragment naming the item: the service has no page per incident. */
export const itemUrl = (pageUrl: string, kind: 'incident' | 'maintenance', id: string): string =>
  `${pageUrl}#${kind}-${encodeURIComponent(id)}`;

const named = (ctx: ItemContext, names: readonly string[]) => {
  const wanted = new Set(names);
  const kept = ctx.monitors.map((m) => wanted.has(m.name));
  return {
    monitors: ctx.monitors.filter((_, i) => kept[i]),
    components: ctx.components.filter((_, i) => kept[i]),
  };
};

/** What an update says, and when. */
type UpdateEntry = Readonly<{ status: UpdateStatus; body: string; atMs: number }>;

/** The `n`th update (from 1) of item `itemId`. */
const update = (itemId: string, n: number, { status, body, atMs }: UpdateEntry): IncidentUpdateJson => {
  const at = formatTimestamp(atMs);
  return {
    id: `${itemId}-u${n}`,
    status,
    body,
    incident_id: itemId,
    created_at: at,
    updated_at: at,
    display_at: at,
    affected_components: null,
    deliver_notifications: true,
    custom_tweet: null,
    tweet_id: null,
  };
};

export const spIncident = (doc: IncidentDoc, ctx: ItemContext): SpIncidentJson => {
  const latest = doc.updates[doc.updates.length - 1];
  const monitoring = doc.updates.filter((u) => u.status === 'monitoring').pop();
  const { monitors, components } = named(ctx, doc.components);
  return {
    id: doc.id,
    name: doc.title,
    status: doc.state,
    created_at: formatTimestamp(doc.startedAt),
    updated_at: formatTimestamp(latest?.createdAt ?? doc.startedAt),
    monitoring_at: monitoring ? formatTimestamp(monitoring.createdAt) : null,
    resolved_at: doc.state === 'resolved' && doc.resolvedAt !== null ? formatTimestamp(doc.resolvedAt) : null,
    impact: incidentImpact(monitors),
    shortlink: itemUrl(ctx.pageUrl, 'incident', doc.id),
    started_at: formatTimestamp(doc.startedAt),
    page_id: ctx.slug,
    incident_updates: doc.updates
      .map((u, i) => update(doc.id, i + 1, { status: u.status, body: u.message, atMs: u.createdAt }))
      .reverse(),
    components,
  };
};

const closing = { cancelled: 'This maintenance was cancelled.', completed: 'This maintenance is complete.' };

export const spMaintenance = (doc: MaintenanceDoc, ctx: ItemContext, nowMs: number): SpIncidentJson => {
  const status = maintenanceStatus(doc, nowMs);
  const state: MaintenanceState = status === 'cancelled' ? 'completed' : status;
  const updatedAt = maintenanceUpdatedAt(doc, nowMs);
  const updates = [
    update(doc.id, 1, { status: 'scheduled', body: doc.description || doc.title, atMs: doc.createdAt }),
  ];
  if (status === 'in_progress')
    updates.push(update(doc.id, 2, { status, body: 'This maintenance is in progress.', atMs: updatedAt }));
  if (status === 'completed' || status === 'cancelled')
    updates.push(update(doc.id, 2, { status: 'completed', body: closing[status], atMs: updatedAt }));
  return {
    id: doc.id,
    name: doc.title,
    status: state,
    created_at: formatTimestamp(doc.createdAt),
    updated_at: formatTimestamp(updatedAt),
    monitoring_at: null,
    resolved_at: state === 'completed' ? formatTimestamp(updatedAt) : null,
    impact: 'maintenance',
    shortlink: itemUrl(ctx.pageUrl, 'maintenance', doc.id),
    started_at: formatTimestamp(doc.createdAt),
    page_id: ctx.slug,
    incident_updates: updates.reverse(),
    components: named(ctx, doc.components).components,
    scheduled_for: formatTimestamp(doc.scheduledStart),
    scheduled_until: formatTimestamp(doc.scheduledEnd),
  };
};
