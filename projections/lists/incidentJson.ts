// The Incident resource of read-api.md, field order as in its table.
import { formatTimestamp } from '../../src/shared/time.ts';
import type { Incident } from '../../src/contract/responseSchemas.ts';
import type { IncidentDoc } from '../types.ts';

export const incidentJson = (doc: IncidentDoc): Incident => ({
  id: doc.id,
  title: doc.title,
  state: doc.state,
  started_at: formatTimestamp(doc.startedAt),
  ...(doc.state === 'resolved' && doc.resolvedAt !== null
    ? { resolved_at: formatTimestamp(doc.resolvedAt) }
    : {}),
  components: [...doc.components],
  updates: doc.updates.map((u) => ({
    status: u.status,
    message: u.message,
    created_at: formatTimestamp(u.createdAt),
  })),
});
