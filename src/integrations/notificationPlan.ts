// One notification's plan, inside its append transaction under the page's alert-state lock: the
// checks of its alerts (alertChecks.ts) and, when the page asks for them, its group's incident
// events (alertIncidents.ts); and the state both leave behind.
import type { DatabaseTransactionConnection } from 'slonik';
import { planIncident, type NewAlert } from './alertIncidents.ts';
import { monitorOf, planAlertChecks, type MappingOptions, type Unmapped } from './alertChecks.ts';
import type { AlertPayload } from './alertPayload.ts';
import { loadAlertRows, lockAlertState, saveAlertRows } from './alertState.ts';
import type { Plan } from './appendPlanned.ts';
import { idsInLog, loadGroupIncident, opensIncidents, saveGroupIncident } from './incidentState.ts';
import { pageMonitors } from './pageMonitors.ts';

export type NotificationPlan = Plan & Readonly<{ paths: string[]; unmapped: Unmapped[] }>;

export const planNotification = async (
  tx: DatabaseTransactionConnection,
  input: Readonly<{ page: string; payload: AlertPayload; mapping: MappingOptions; now: Date }>,
): Promise<NotificationPlan> => {
  const { page, payload, mapping, now } = input;
  await lockAlertState(tx, page);
  const monitors = await pageMonitors(tx, page);
  const mapped = payload.alerts.flatMap((a) => monitorOf(a, monitors, mapping)?.id ?? []);
  const known = await loadAlertRows(tx, page, [...new Set(mapped)]);
  const plan = planAlertChecks({ page, alerts: payload.alerts, monitors, options: mapping, known });
  const checks = plan.checks.map((c) => c.event);
  const saveAlerts = (t: DatabaseTransactionConnection) => saveAlertRows(t, page, plan.rows, now);
  const base = { paths: plan.checks.map((c) => c.path), unmapped: plan.unmapped };
  if (plan.checks.length === 0 || !(await opensIncidents(tx, page)))
    return { ...base, events: checks, commit: saveAlerts };

  // What this service has not seen before decides: a repeated notification changes nothing.
  const seen = await idsInLog(
    tx,
    plan.checks.map((c) => c.event.id),
  );
  const fresh = plan.checks.filter((c) => !seen.has(c.event.id));
  const firingNew: NewAlert[] = fresh.flatMap((c) => {
    const alert = payload.alerts[c.index];
    const monitor = monitors.find((m) => m.id === c.event.data.monitor_id);
    return c.edge === 'firing' && alert?.status === 'firing' && monitor
      ? [{ alert, monitorName: monitor.name }]
      : [];
  });
  const ends = payload.alerts.flatMap((a) => (a.status === 'resolved' ? [Date.parse(a.endsAt)] : []));
  const current = await loadGroupIncident(tx, page, payload.groupKey);
  const incident = planIncident({
    page,
    groupKey: payload.groupKey,
    firingNew,
    groupResolved: payload.status === 'resolved' && fresh.some((c) => c.edge === 'resolved'),
    resolvedAtMs: Math.max(0, ...ends),
    current,
  });
  return {
    paths: [...base.paths, ...incident.events.map(() => 'groupKey')],
    unmapped: base.unmapped,
    events: [...checks, ...incident.events],
    commit: async (t) => {
      await saveAlerts(t);
      if (incident.group !== null) await saveGroupIncident(t, page, payload.groupKey, incident.group);
    },
  };
};
