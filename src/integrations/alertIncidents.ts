// Incidents from alert groups (page setting alert_incidents: open; docs/integrations.md): the
// first new firing alert of a group opens an incident, later ones update it, the group's
// resolution resolves it unless a person has updated it (then a last update says so and the
// person decides), and a group firing again within 10 minutes of resolving reopens it.
import { createHash } from 'node:crypto';
import type { IncidentState } from '../events/incident.ts';
import { must } from '../shared/must.ts';
import { formatTimestamp } from '../shared/time.ts';
import type { Alert } from './alertPayload.ts';

/** Incident events written by alerts carry ids starting so; any other update is a person's. */
export const ALERT_INCIDENT_ID_PREFIX = 'alertinc-';
const REOPEN_WITHIN_MS = 10 * 60_000;
const MAX_TITLE = 500;
const MAX_MESSAGE = 10_000;

export type GroupIncident = Readonly<{
  incidentId: string;
  seq: number;
  /** The state of its latest update (by time), and that update's time when resolved. */
  state: IncidentState;
  resolvedAtMs: number | null;
  personUpdated: boolean;
}>;

export type NewAlert = Readonly<{ alert: Alert; monitorName: string }>;

const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const nameOf = (alert: Alert) => alert.annotations['summary'] ?? alert.labels['alertname'] ?? 'Alert';

export const groupIncidentId = (page: string, groupKey: string, seq: number): string =>
  `alerts-${short(`${page}\u0000${groupKey}`)}-${seq}`;

type IncidentEvent = Readonly<{ page: string; id: string; type: string; atMs: number }>;
const event = ({ page, id, type, atMs }: IncidentEvent, data: Record<string, unknown>) => ({
  id: `${ALERT_INCIDENT_ID_PREFIX}${id}`,
  type,
  page,
  at: formatTimestamp(atMs),
  data,
});

/** The incident events a notification implies, and the group's incident afterwards. */
export const planIncident = (input: {
  page: string;
  groupKey: string;
  /** Mapped alerts firing that this service had not seen fire before. */
  firingNew: readonly NewAlert[];
  /** The whole group has resolved and this notification brought a resolution not seen before. */
  groupResolved: boolean;
  /** The latest endsAt of the notification's mapped alerts. */
  resolvedAtMs: number;
  current: GroupIncident | null;
}): { events: ReturnType<typeof event>[]; group: { incidentId: string; seq: number } | null } => {
  const { page, current } = input;
  const kept = current === null ? null : { incidentId: current.incidentId, seq: current.seq };
  if (input.firingNew.length > 0) {
    const firing = [...input.firingNew].sort(
      (a, b) => Date.parse(a.alert.startsAt) - Date.parse(b.alert.startsAt),
    );
    const first = must(firing[0], 'a firing alert').alert;
    const atMs = Date.parse(first.startsAt);
    const names = [...new Set(firing.map((f) => nameOf(f.alert)))].join(', ');
    const fingerprints = short(firing.map((f) => f.alert.fingerprint).join('\u0000'));
    if (current !== null && current.state !== 'resolved') {
      const update = event(
        { page, id: `${current.incidentId}-fire-${atMs}-${fingerprints}`, type: 'incident.updated', atMs },
        {
          incident_id: current.incidentId,
          state: current.state, // a person's state stays
          message: `Also firing: ${names}`.slice(0, MAX_MESSAGE),
        },
      );
      return { events: [update], group: kept };
    }
    if (
      current !== null &&
      current.resolvedAtMs !== null &&
      atMs - current.resolvedAtMs <= REOPEN_WITHIN_MS
    ) {
      const reopen = event(
        { page, id: `${current.incidentId}-reopen-${atMs}-${fingerprints}`, type: 'incident.updated', atMs },
        {
          incident_id: current.incidentId,
          state: 'investigating',
          message: `Firing again: ${names}`.slice(0, MAX_MESSAGE),
        },
      );
      return { events: [reopen], group: kept };
    }
    const seq = (current?.seq ?? 0) + 1;
    const incidentId = groupIncidentId(page, input.groupKey, seq);
    const opened = event(
      { page, id: `${incidentId}-open`, type: 'incident.opened', atMs },
      {
        incident_id: incidentId,
        title: nameOf(first).slice(0, MAX_TITLE),
        message: (first.annotations['description'] ?? '').slice(0, MAX_MESSAGE),
        state: 'investigating',
        components: [...new Set(firing.map((f) => f.monitorName))].slice(0, 100),
      },
    );
    return { events: [opened], group: { incidentId, seq } };
  }
  if (!input.groupResolved || current === null || current.state === 'resolved')
    return { events: [], group: kept };
  const atMs = input.resolvedAtMs;
  const resolved = current.personUpdated
    ? {
        state: current.state,
        message: 'All alerts of this incident have resolved; it stays open for you to close.',
      }
    : { state: 'resolved', message: 'All alerts of this incident have resolved.' };
  const update = event(
    { page, id: `${current.incidentId}-resolved-${atMs}`, type: 'incident.updated', atMs },
    {
      incident_id: current.incidentId,
      ...resolved,
    },
  );
  return { events: [update], group: kept };
};
