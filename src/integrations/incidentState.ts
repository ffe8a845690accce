// What alert incidents are planned from: the page's alert_incidents setting and a group's incident
// as the log tells it (latest state, whether a person updated it), and the ids already in the log.
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import { IncidentState } from '../events/incident.ts';
import { ALERT_INCIDENT_ID_PREFIX, type GroupIncident } from './alertIncidents.ts';

/** Whether the page's latest settings ask alerts to open incidents. */
export const opensIncidents = async (tx: DatabaseTransactionConnection, page: string): Promise<boolean> =>
  (await tx.maybeOneFirst(sql.type(z.object({ setting: z.string().nullable() }))`
    SELECT data->>'alert_incidents' AS setting FROM event_log
    WHERE type = 'page.configured' AND page = ${page} ORDER BY position DESC LIMIT 1`)) === 'open';

const Update = z.object({ event_id: z.string().nullable(), state: IncidentState, at: z.number() });

export const loadGroupIncident = async (
  tx: DatabaseTransactionConnection,
  page: string,
  groupKey: string,
): Promise<GroupIncident | null> => {
  const group = await tx.maybeOne(sql.type(z.object({ incident_id: z.string(), seq: z.number() }))`
    SELECT incident_id, seq FROM integration_incidents WHERE page = ${page} AND group_key = ${groupKey}`);
  if (group === null) return null;
  const updates = await tx.any(sql.type(Update)`
    SELECT event_id, data->>'state' AS state, at FROM event_log
    WHERE type IN ('incident.opened', 'incident.updated') AND page = ${page}
      AND data->>'incident_id' = ${group.incident_id}
    ORDER BY at, position`);
  const latest = updates.at(-1);
  // The incident left the page (the page was deleted and configured again): the next alert opens one.
  if (latest === undefined) return null;
  return {
    incidentId: group.incident_id,
    seq: group.seq,
    state: latest.state,
    resolvedAtMs: latest.state === 'resolved' ? latest.at : null,
    personUpdated: updates.some((u) => !(u.event_id ?? '').startsWith(ALERT_INCIDENT_ID_PREFIX)),
  };
};

export const saveGroupIncident = async (
  tx: DatabaseTransactionConnection,
  page: string,
  groupKey: string,
  group: { incidentId: string; seq: number },
): Promise<void> => {
  await tx.query(sql.unsafe`
    INSERT INTO integration_incidents (page, group_key, incident_id, seq)
    VALUES (${page}, ${groupKey}, ${group.incidentId}, ${group.seq})
    ON CONFLICT (page, group_key) DO UPDATE SET incident_id = EXCLUDED.incident_id, seq = EXCLUDED.seq`);
};

/** Which of `ids` the log already holds. */
export const idsInLog = async (
  tx: DatabaseTransactionConnection,
  ids: readonly string[],
): Promise<Set<string>> =>
  new Set(
    ids.length === 0
      ? []
      : await tx.anyFirst(sql.type(z.object({ event_id: z.string() }))`
          SELECT event_id FROM event_ids WHERE event_id = ANY(${sql.array([...ids], 'text')})`),
  );
