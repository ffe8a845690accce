// The page document (`pg:<slug>:state`) as stored: PageState without `updatedAt`, which lives in
// `pg:<slug>:updated` (epoch ms as a decimal string) so it is stored once.
import { z } from 'zod';
import type { PageState } from '../../../projections/types.ts';
import { IncidentState } from '../../events/incident.ts';
import { Impact } from '../../events/monitor.ts';
import { Plan } from '../../events/page.ts';
import { parseStoredJson } from '../corruptReadModel.ts';

export type StoredPageState = Omit<PageState, 'updatedAt'>;

const Monitor = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  impact: Impact,
  position: z.number().nullable(),
});

const Incident = z.object({
  id: z.string(),
  title: z.string(),
  state: IncidentState,
  startedAt: z.number(),
  resolvedAt: z.number().nullable(),
  components: z.array(z.string()),
  updates: z.array(z.object({ status: IncidentState, message: z.string(), createdAt: z.number() })),
});

const Maintenance = z.object({
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
});

export const StoredPageState: z.ZodType<StoredPageState> = z.object({
  settings: z.object({
    slug: z.string(),
    title: z.string(),
    plan: Plan,
    customDomain: z.string().nullable(),
    tokenHash: z.string().nullable(),
    blocked: z.boolean(),
  }),
  deleted: z.boolean(),
  monitors: z.record(Monitor),
  incidents: z.record(Incident),
  maintenances: z.record(Maintenance),
});

export const encodePageState = (state: PageState): string => {
  const { updatedAt: _stored_apart, ...doc } = state;
  return JSON.stringify(doc);
};

/**
 * The stored document with `updatedAt` from its own key; null when the page has no document.
 * @throws CorruptReadModel on a malformed document
 */
export const decodePageState = (text: string | null, updated: string | null): PageState | null => {
  if (text === null) return null;
  return { ...parseStoredJson(StoredPageState, text, 'page state'), updatedAt: decodeUpdated(updated) };
};

export const encodeUpdated = (at: number): string => String(at);
export const decodeUpdated = (text: string | null): number | null => (text === null ? null : Number(text));
