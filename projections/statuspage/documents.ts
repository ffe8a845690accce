// The Statuspage API v2 documents of one page, rendered whole and served as stored bytes under
// /s/{slug}/api/v2/<name>.json.
import { formatTimestamp } from '../../src/shared/time.ts';
import type { IncidentDoc, MaintenanceDoc, MonitorStatus, OverallStatus } from '../types.ts';
import { maintenanceStatus } from '../lists/maintenanceJson.ts';
import { inDisplayOrder } from '../render/monitorOrder.ts';
import { UPDATED_SLOT } from '../render/updatedSlot.ts';
import { componentStatus, type ComponentJson } from './components.ts';
import { spIncident, spMaintenance, type ItemContext } from './incidents.ts';
import { statusOf } from './indicator.ts';

export const statuspageDocuments = [
  'summary',
  'status',
  'components',
  'incidents',
  'incidents/unresolved',
  'scheduled-maintenances',
  'scheduled-maintenances/upcoming',
  'scheduled-maintenances/active',
] as const;
export type StatuspageDocument = (typeof statuspageDocuments)[number];

type StatuspageInput = Readonly<{
  slug: string;
  title: string;
  pageUrl: string;
  overall: OverallStatus;
  monitors: readonly MonitorStatus[];
  incidents: readonly IncidentDoc[];
  maintenances: readonly MaintenanceDoc[];
  nowMs: number;
}>;

const LIST_LIMIT = 50;
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const componentsOf = (input: StatuspageInput, monitors: readonly MonitorStatus[]): ComponentJson[] => {
  const inMaintenance = new Set(
    input.maintenances
      .filter((m) => maintenanceStatus(m, input.nowMs) === 'in_progress')
      .flatMap((m) => m.components),
  );
  return monitors.map((m, i) => ({
    id: String(m.id),
    name: m.name,
    status: componentStatus(m, inMaintenance.has(m.name)),
    created_at: m.firstAt === null ? UPDATED_SLOT : formatTimestamp(m.firstAt),
    updated_at: UPDATED_SLOT,
    position: i + 1,
    description: null,
    showcase: true,
    start_date: null,
    group_id: null,
    page_id: input.slug,
    group: false,
    only_show_if_degraded: false,
  }));
};

/**
 * An incident's JSON, per document and page context (addresses, monitors, components): documents
 * decoded from the read models are frozen and shared while unchanged, so an update stringifies
 * the incident that changed, not every shown one.
 */
const incidentTexts = new WeakMap<IncidentDoc, { context: string; text: string }>();
const list = (texts: readonly string[]): string => `[${texts.join(',')}]`;

/** Every document as its JSON text, keyed by its path under api/v2 without `.json`. */
export const renderStatuspage = (input: StatuspageInput): Record<StatuspageDocument, string> => {
  const monitors = inDisplayOrder(input.monitors);
  const components = componentsOf(input, monitors);
  const ctx: ItemContext = { slug: input.slug, pageUrl: input.pageUrl, monitors, components };
  const page = {
    id: input.slug,
    name: input.title,
    url: input.pageUrl,
    time_zone: 'Etc/UTC',
    updated_at: UPDATED_SLOT,
  };
  // Only the newest LIST_LIMIT and the unresolved ones are shown: a page's long history costs a sort.
  const sorted = [...input.incidents].sort((a, b) => b.startedAt - a.startedAt || byId(a, b));
  const context = JSON.stringify([input.slug, input.pageUrl, monitors, components]);
  const sp = (doc: IncidentDoc): string => {
    const known = incidentTexts.get(doc);
    if (known?.context === context) return known.text;
    const text = JSON.stringify(spIncident(doc, ctx));
    if (Object.isFrozen(doc)) incidentTexts.set(doc, { context, text });
    return text;
  };
  const newest = sorted.slice(0, LIST_LIMIT).map(sp);
  const maintenances = [...input.maintenances]
    .sort((a, b) => b.scheduledStart - a.scheduledStart || byId(a, b))
    .map((doc) => ({ doc, json: spMaintenance(doc, ctx, input.nowMs) }));
  const withStatus = (...wanted: string[]) =>
    maintenances.filter(({ doc }) => wanted.includes(maintenanceStatus(doc, input.nowMs))).map((m) => m.json);
  const unresolved = sorted.filter((doc) => doc.state !== 'resolved').map(sp);
  const upcoming = withStatus('scheduled');
  const active = withStatus('in_progress');
  const status = statusOf(input.overall);
  const json = JSON.stringify;
  return {
    // Built as JSON.stringify would write these objects, with the incidents' texts spliced in.
    summary:
      `{"page":${json(page)},"components":${json(components)},"incidents":${list(unresolved)},` +
      `"scheduled_maintenances":${json(withStatus('scheduled', 'in_progress'))},"status":${json(status)}}`,
    status: json({ page, status }),
    components: json({ page, components }),
    incidents: `{"page":${json(page)},"incidents":${list(newest)}}`,
    'incidents/unresolved': `{"page":${json(page)},"incidents":${list(unresolved)}}`,
    'scheduled-maintenances': json({
      page,
      scheduled_maintenances: maintenances.slice(0, LIST_LIMIT).map((m) => m.json),
    }),
    'scheduled-maintenances/upcoming': json({ page, scheduled_maintenances: upcoming }),
    'scheduled-maintenances/active': json({ page, scheduled_maintenances: active }),
  };
};
