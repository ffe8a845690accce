// When an incident last changed: its latest update (the feeds' order), else its start.
import type { IncidentDoc } from '../types.ts';

export const incidentUpdatedAt = (doc: IncidentDoc): number =>
  doc.updates[doc.updates.length - 1]?.createdAt ?? doc.startedAt;
