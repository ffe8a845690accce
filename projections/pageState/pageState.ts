// The per-page document the projector keeps (pg:<slug>:state): settings, monitor configs,
// incident and maintenance docs and the time of the page's latest event. Every rendered output of
// a page derives from it plus the monitors' timelines.
import type { ProjectedEvent, ProjectedEventOf } from '../../src/events/storedEvent.ts';
import { evolveIncident } from './evolveIncident.ts';
import { evolveMaintenance } from './evolveMaintenance.ts';
import type { PageState } from '../types.ts';

const later = (a: number | null, b: number): number => (a === null ? b : Math.max(a, b));

/** How an entry is set in one of a page's collections: a new copy by default (see foldPageState). */
export type Put = <T>(
  collection: Readonly<Record<string, T>>,
  key: string,
  value: T,
) => Readonly<Record<string, T>>;

const copyWith: Put = (collection, key, value) => ({ ...collection, [key]: value });

/** Advances `updatedAt` to `atMs`; the fast path for check.recorded, which changes nothing else. */
export const touchUpdatedAt = (state: PageState | null, atMs: number): PageState | null =>
  state === null || state.deleted || (state.updatedAt !== null && state.updatedAt >= atMs)
    ? state
    : { ...state, updatedAt: atMs };

const configure = (state: PageState | null, event: ProjectedEventOf<'page.configured'>): PageState => {
  const {
    title,
    plan,
    custom_domain,
    auth_token_hash,
    blocked,
    time_zone,
    sla_target,
    sla_exclude_maintenance,
    locale,
  } = event.data;
  const at = event.at;
  const settings = {
    slug: event.page,
    title,
    plan,
    customDomain: custom_domain,
    tokenHash: auth_token_hash,
    blocked,
    configuredAt: at,
    ...(time_zone === undefined ? {} : { timeZone: time_zone }),
    ...(sla_target === undefined ? {} : { slaTarget: sla_target }),
    ...(sla_exclude_maintenance === undefined ? {} : { slaExcludeMaintenance: sla_exclude_maintenance }),
    ...(locale === undefined ? {} : { locale }),
  };
  if (state === null) {
    return { settings, deleted: false, updatedAt: at, monitors: {}, incidents: {}, maintenances: {} };
  }
  return { ...state, settings, deleted: false, updatedAt: later(state.updatedAt, at) };
};

export type PageEvolve = (state: PageState | null, event: ProjectedEvent) => PageState | null;

/** The page's evolve, with `put` setting entries of its collections. */
export const evolvePageStateWith =
  (put: Put): PageEvolve =>
  (state, event) => {
    if (event.type === 'page.configured') return configure(state, event);
    if (state === null || state.deleted) return state; // events of an unknown or deleted page change nothing
    const page: PageState = { ...state, updatedAt: later(state.updatedAt, event.at) };
    switch (event.type) {
      case 'page.deleted':
        return { ...page, deleted: true, monitors: {}, incidents: {}, maintenances: {} };
      case 'check.recorded':
        return page;
      case 'monitor.configured': {
        const { monitor_id, name, type, impact, position, sla_target } = event.data;
        const monitor = {
          id: monitor_id,
          name,
          type,
          impact,
          position: position ?? null,
          ...(sla_target === undefined ? {} : { slaTarget: sla_target }),
        };
        return { ...page, monitors: put(page.monitors, String(monitor_id), monitor) };
      }
      case 'monitor.removed': {
        const { [String(event.data.monitor_id)]: _removed, ...monitors } = page.monitors;
        return { ...page, monitors };
      }
      case 'incident.opened':
      case 'incident.updated': {
        const id = event.data.incident_id;
        const doc = evolveIncident(page.incidents[id] ?? null, event);
        return doc === null ? page : { ...page, incidents: put(page.incidents, id, doc) };
      }
      case 'maintenance.scheduled':
      case 'maintenance.updated':
      case 'maintenance.started':
      case 'maintenance.completed':
      case 'maintenance.cancelled': {
        const id = event.data.maintenance_id;
        const doc = evolveMaintenance(page.maintenances[id] ?? null, event);
        return doc === null ? page : { ...page, maintenances: put(page.maintenances, id, doc) };
      }
    }
  };

export const evolvePageState = evolvePageStateWith(copyWith);
