// The page document, stored in parts so a batch reads only what its events touch
// (docs/read-models.md).
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { IncidentDoc, MaintenanceDoc, PageState } from '../types.ts';
import { IncidentState } from '../../src/events/incident.ts';
import { Impact } from '../../src/events/monitor.ts';
import { Plan } from '../../src/events/page.ts';
import { LOCALES } from '../locale/locales.ts';
import { parseStoredJson } from '../store/corruptReadModel.ts';

type PageCore = Pick<PageState, 'settings' | 'deleted' | 'monitors'>;

const Monitor = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  impact: Impact,
  position: z.number().nullable(),
  slaTarget: z.number().optional(),
});

const Incident: z.ZodType<IncidentDoc> = z.object({
  id: z.string(),
  title: z.string(),
  state: IncidentState,
  startedAt: z.number(),
  resolvedAt: z.number().nullable(),
  components: z.array(z.string()),
  updates: z.array(z.object({ status: IncidentState, message: z.string(), createdAt: z.number() })),
});

const Maintenance: z.ZodType<MaintenanceDoc> = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  scheduledStart: z.number(),
  scheduledEnd: z.number(),
  components: z.array(z.string()),
  createdAt: z.number(),
  started: z.boolean(),
  completed: z.boolean(),
  cancelled: z.boolean(),
  startedAt: z.number().optional(),
  completedAt: z.number().optional(),
  cancelledAt: z.number().optional(),
});

/** The core, and the whole document as an earlier layout stored it (incidents and maintenances inside). */
const StoredCore: z.ZodType<
  PageCore & {
    incidents?: PageState['incidents'] | undefined;
    maintenances?: PageState['maintenances'] | undefined;
  },
  z.ZodTypeDef,
  unknown
> = z.object({
  settings: z.object({
    slug: z.string(),
    title: z.string(),
    plan: Plan,
    customDomain: z.string().nullable(),
    tokenHash: z.string().nullable(),
    blocked: z.boolean(),
    configuredAt: z
      .number()
      .nullish()
      .transform((at) => at ?? null),
    timeZone: z.string().optional(),
    slaTarget: z.number().optional(),
    slaExcludeMaintenance: z.boolean().optional(),
    locale: z.enum(LOCALES).optional(),
  }),
  deleted: z.boolean(),
  monitors: z.record(Monitor),
  incidents: z.record(Incident).optional(),
  maintenances: z.record(Maintenance).optional(),
});

export const encodePageCore = (state: PageState): string =>
  JSON.stringify({ settings: state.settings, deleted: state.deleted, monitors: state.monitors });

export const encodeIncident = (doc: IncidentDoc): string => JSON.stringify(doc);
export const encodeMaintenance = (doc: MaintenanceDoc): string => JSON.stringify(doc);

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
};

/**
 * A decoder that checks each stored text once: every batch that checks a page's monitors reads
 * its core, and every render of a page in an incident its shown incidents, which change far less
 * often than they are read. Bounded by the texts' length; the values are frozen, being shared.
 */
const cachedDecoder = <T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, maxChars: number) => {
  const decoded = new LRUCache<string, { value: T }>({
    maxSize: maxChars,
    sizeCalculation: (_value, text) => text.length + 64,
  });
  return (text: string, what: string): T => {
    const hit = decoded.get(text);
    if (hit !== undefined) return hit.value;
    const value = deepFreeze(parseStoredJson(schema, text, what));
    decoded.set(text, { value });
    return value;
  };
};

const decodeCore = cachedDecoder(StoredCore, 16_000_000);
const decodeIncident = cachedDecoder(Incident, 16_000_000);
const decodeMaintenance = cachedDecoder(Maintenance, 4_000_000);

/** The stored parts of a page document (hash fields: id → JSON; only those read). */
type StoredPage = Readonly<{
  core: string | null;
  updated: string | null;
  incidents: Readonly<Record<string, string | null>>;
  maintenances: Readonly<Record<string, string | null>>;
}>;

/** A decoded document; `legacy` when its core still holds incidents and maintenances. */
export type DecodedPage = Readonly<{ state: PageState; legacy: boolean }>;

const decodeDocs = <T>(
  decode: (text: string, what: string) => T,
  fields: Readonly<Record<string, string | null>>,
  what: string,
): Record<string, T> => {
  const docs: Record<string, T> = {};
  for (const [id, text] of Object.entries(fields))
    if (text !== null) docs[id] = decode(text, `${what} ${id}`);
  return docs;
};

/**
 * The document from its parts, with only the incidents and maintenances that were read; null
 * when the page has no document. A legacy core's incidents and maintenances count as stored too
 * (the hashes win: they are written from the first batch that rewrites the core).
 * @throws CorruptReadModel on a malformed part
 */
export const decodePage = (stored: StoredPage): DecodedPage | null => {
  if (stored.core === null) return null;
  const {
    incidents: oldIncidents,
    maintenances: oldMaintenances,
    ...core
  } = decodeCore(stored.core, 'page state');
  const state: PageState = {
    ...core,
    updatedAt: decodeUpdated(stored.updated),
    incidents: { ...oldIncidents, ...decodeDocs(decodeIncident, stored.incidents, 'incident document') },
    maintenances: {
      ...oldMaintenances,
      ...decodeDocs(decodeMaintenance, stored.maintenances, 'maintenance document'),
    },
  };
  return { state, legacy: oldIncidents !== undefined || oldMaintenances !== undefined };
};

export const encodeUpdated = (at: number): string => String(at);
export const decodeUpdated = (text: string | null): number | null => (text === null ? null : Number(text));
