// The Incident resource of read-api.md, field order as in its table.
import { formatTimestamp } from '../../src/shared/time.ts';
import type { IncidentDoc, IncidentState } from '../types.ts';

export type IncidentUpdateJson = { status: IncidentState; message: string; created_at: string };
export type IncidentJson = {
  id: string;
  title: string;
  state: IncidentState;
  started_at: string;
  resolved_at?: string;
  components: readonly string[];
  updates: IncidentUpdateJson[];
};

export const incidentJson = (doc: IncidentDoc): IncidentJson => ({
  id: doc.id,
  title: doc.title,
  state: doc.state,
  started_at: formatTimestamp(doc.startedAt),
  ...(doc.state === 'resolved' && doc.resolvedAt !== null
    ? { resolved_at: formatTimestamp(doc.resolvedAt) }
    : {}),
  components: doc.components,
  updates: doc.updates.map((u) => ({
    status: u.status,
    message: u.message,
    created_at: formatTimestamp(u.createdAt),
  })),
});
