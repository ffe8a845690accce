// The reference rules of ingest.md, checked against the write model (pages, monitors,
// incidents, maintenances) overlaid with what earlier events of the same batch did.
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { ParsedEvent } from '../events/parseEvent.ts';
import {
  claimDomain,
  claimedDomain,
  emptyDomainClaims,
  loadDomainClaims,
  releaseDomain,
  type DomainClaims,
} from './domainClaims.ts';

type MonitorEntry = { page: string; removed: boolean };
type Change =
  | { kind: 'page'; slug: string; deleted: boolean; domain: string | null }
  | { kind: 'monitor'; id: number; page: string; removed: boolean }
  | { kind: 'incident' | 'maintenance'; page: string; id: string };

type Registry = {
  pages: Map<string, boolean>; // slug → deleted
  monitors: Map<number, MonitorEntry>;
  incidents: Set<string>;
  maintenances: Set<string>;
  domains: DomainClaims;
  changes: Change[];
};

const key = (page: string, id: string) => `${page}\u0000${id}`;
const monitorIdOf = ({ data }: ParsedEvent) => ('monitor_id' in data ? [data.monitor_id] : []);
const incidentRefOf = ({ page, data }: ParsedEvent) =>
  'incident_id' in data ? [[page, data.incident_id]] : [];
const maintenanceRefOf = ({ page, data }: ParsedEvent) =>
  'maintenance_id' in data ? [[page, data.maintenance_id]] : [];

/** `ownHost`: the service's own public host, which no page may claim as its domain. */
export const emptyRegistry = (ownHost: string | null = null): Registry => ({
  pages: new Map(),
  monitors: new Map(),
  incidents: new Set(),
  maintenances: new Set(),
  domains: emptyDomainClaims(ownHost),
  changes: [],
});

/** Loads into `registry` the write-model rows the events refer to that it does not hold yet. */
export const loadRegistry = async (
  tx: DatabaseTransactionConnection,
  registry: Registry,
  events: readonly ParsedEvent[],
): Promise<void> => {
  const pages = [...new Set(events.map((e) => e.page))].filter((p) => !registry.pages.has(p));
  const monitorIds = [...new Set(events.flatMap(monitorIdOf))].filter((id) => !registry.monitors.has(id));
  const incidentRefs = events.flatMap(incidentRefOf);
  const maintenanceRefs = events.flatMap(maintenanceRefOf);

  await loadDomainClaims(tx, registry.domains, events);
  const [pageRows, monitorRows, incidentRows, maintenanceRows] = await Promise.all([
    tx.any(sql.type(z.object({ slug: z.string(), deleted: z.boolean() }))`
      SELECT slug, deleted FROM pages WHERE slug = ANY(${sql.array(pages, 'text')})`),
    tx.any(sql.type(z.object({ monitor_id: z.string(), page: z.string(), removed: z.boolean() }))`
      SELECT monitor_id, page, removed FROM monitors WHERE monitor_id = ANY(${sql.array(monitorIds, 'int8')})`),
    tx.any(sql.type(z.object({ page: z.string(), id: z.string() }))`
      SELECT page, incident_id AS id FROM incidents
      WHERE (page, incident_id) IN (SELECT * FROM ${sql.unnest(incidentRefs, ['text', 'text'])})`),
    tx.any(sql.type(z.object({ page: z.string(), id: z.string() }))`
      SELECT page, maintenance_id AS id FROM maintenances
      WHERE (page, maintenance_id) IN (SELECT * FROM ${sql.unnest(maintenanceRefs, ['text', 'text'])})`),
  ]);
  for (const slug of pages) registry.pages.set(slug, true); // unknown counts as deleted
  for (const row of pageRows) registry.pages.set(row.slug, row.deleted);
  for (const row of monitorRows)
    registry.monitors.set(Number(row.monitor_id), { page: row.page, removed: row.removed });
  for (const row of incidentRows) registry.incidents.add(key(row.page, row.id));
  for (const row of maintenanceRows) registry.maintenances.add(key(row.page, row.id));
};

/** Applies one event to the overlay; returns why it breaks a reference rule, or null. */
export const applyToRegistry = (registry: Registry, event: ParsedEvent): string | null => {
  const { page } = event;
  if (event.type === 'page.configured') {
    const domain = claimedDomain(event);
    const refused = claimDomain(registry.domains, page, domain);
    if (refused !== null) return refused;
    registry.pages.set(page, false);
    registry.changes.push({ kind: 'page', slug: page, deleted: false, domain });
    return null;
  }
  if (registry.pages.get(page) !== false) return `page "${page}" does not exist`;
  switch (event.type) {
    case 'page.deleted': {
      registry.pages.set(page, true);
      releaseDomain(registry.domains, page);
      for (const monitor of registry.monitors.values()) if (monitor.page === page) monitor.removed = true;
      const prefix = key(page, '');
      for (const set of [registry.incidents, registry.maintenances])
        for (const k of set) if (k.startsWith(prefix)) set.delete(k);
      registry.changes.push({ kind: 'page', slug: page, deleted: true, domain: null });
      return null;
    }
    case 'monitor.configured': {
      const id = event.data.monitor_id;
      const existing = registry.monitors.get(id);
      if (existing && !existing.removed && existing.page !== page)
        return `monitor ${id} belongs to another page`;
      registry.monitors.set(id, { page, removed: false });
      registry.changes.push({ kind: 'monitor', id, page, removed: false });
      return null;
    }
    case 'monitor.removed':
    case 'check.recorded': {
      const id = event.data.monitor_id;
      const existing = registry.monitors.get(id);
      if (!existing || existing.removed || existing.page !== page)
        return `monitor ${id} does not exist on page "${page}"`;
      if (event.type === 'monitor.removed') {
        existing.removed = true;
        registry.changes.push({ kind: 'monitor', id, page, removed: true });
      }
      return null;
    }
    case 'incident.opened':
      return addEntity(registry, 'incident', page, event.data.incident_id);
    case 'maintenance.scheduled':
      return addEntity(registry, 'maintenance', page, event.data.maintenance_id);
    case 'incident.updated':
      return registry.incidents.has(key(page, event.data.incident_id))
        ? null
        : `incident "${event.data.incident_id}" does not exist on page "${page}"`;
    case 'maintenance.updated':
    case 'maintenance.started':
    case 'maintenance.completed':
    case 'maintenance.cancelled':
      return registry.maintenances.has(key(page, event.data.maintenance_id))
        ? null
        : `maintenance "${event.data.maintenance_id}" does not exist on page "${page}"`;
  }
};

const addEntity = (
  registry: Registry,
  kind: 'incident' | 'maintenance',
  page: string,
  id: string,
): string | null => {
  const set = kind === 'incident' ? registry.incidents : registry.maintenances;
  if (set.has(key(page, id))) return `${kind} "${id}" already exists on page "${page}"`;
  set.add(key(page, id));
  registry.changes.push({ kind, page, id });
  return null;
};

/** Writes the overlay's changes back to the write model, in the append transaction. */
export const persistRegistry = async (
  tx: DatabaseTransactionConnection,
  registry: Registry,
): Promise<void> => {
  for (const change of registry.changes) {
    if (change.kind === 'page') {
      await tx.query(sql.unsafe`
        INSERT INTO pages (slug, deleted, custom_domain) VALUES (${change.slug}, ${change.deleted}, ${change.domain})
        ON CONFLICT (slug) DO UPDATE SET deleted = EXCLUDED.deleted, custom_domain = EXCLUDED.custom_domain`);
      if (change.deleted) {
        await tx.query(sql.unsafe`UPDATE monitors SET removed = true WHERE page = ${change.slug}`);
        await tx.query(sql.unsafe`DELETE FROM incidents WHERE page = ${change.slug}`);
        await tx.query(sql.unsafe`DELETE FROM maintenances WHERE page = ${change.slug}`);
      }
    } else if (change.kind === 'monitor') {
      await tx.query(sql.unsafe`
        INSERT INTO monitors (monitor_id, page, removed) VALUES (${change.id}, ${change.page}, ${change.removed})
        ON CONFLICT (monitor_id) DO UPDATE SET page = EXCLUDED.page, removed = EXCLUDED.removed`);
    } else {
      const table =
        change.kind === 'incident' ? sql.identifier(['incidents']) : sql.identifier(['maintenances']);
      const column =
        change.kind === 'incident' ? sql.identifier(['incident_id']) : sql.identifier(['maintenance_id']);
      await tx.query(sql.unsafe`
        INSERT INTO ${table} (page, ${column}) VALUES (${change.page}, ${change.id}) ON CONFLICT DO NOTHING`);
    }
  }
  registry.changes = [];
};
