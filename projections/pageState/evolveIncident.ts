// One incident document from its opened/updated events. Updates stay sorted by time even when
// events arrive out of order, and state/resolvedAt are derived from the latest update, so the
// result does not depend on arrival order.
import type { ProjectedEventOf } from '../../src/events/storedEvent.ts';
import type { IncidentDoc, IncidentUpdate } from '../types.ts';

type IncidentEvent = ProjectedEventOf<'incident.opened' | 'incident.updated'>;

/** Inserts after every update at the same time or earlier: stable for equal times. */
const insertByTime = (updates: readonly IncidentUpdate[], update: IncidentUpdate): IncidentUpdate[] => {
  let i = updates.length;
  while (i > 0 && (updates[i - 1]?.createdAt ?? -Infinity) > update.createdAt) i--;
  return [...updates.slice(0, i), update, ...updates.slice(i)];
};

export const evolveIncident = (doc: IncidentDoc | null, event: IncidentEvent): IncidentDoc | null => {
  const at = event.at;
  if (event.type === 'incident.opened') {
    const { incident_id, title, message, state, components } = event.data;
    return {
      id: incident_id,
      title,
      state,
      startedAt: at,
      resolvedAt: null,
      components,
      updates: [{ status: state, message, createdAt: at }],
    };
  }
  if (doc === null) return null; // the write side guarantees an opened incident; never invent one
  const { state, message, title, components } = event.data;
  const updates = insertByTime(doc.updates, { status: state, message, createdAt: at });
  const latest = updates[updates.length - 1] ?? { status: state, createdAt: at };
  return {
    ...doc,
    title: title ?? doc.title,
    components: components ?? doc.components,
    state: latest.status,
    // A later non-resolved update reopens the incident.
    resolvedAt: latest.status === 'resolved' ? latest.createdAt : null,
    updates,
  };
};
