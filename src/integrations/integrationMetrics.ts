// What the operator listener counts of alert notifications (docs/operations.md, "Every metric").
import { Counter, type Registry } from 'prom-client';

const NOTIFICATIONS = 'integration_notifications_total';
const TRUNCATED = 'integration_alerts_truncated_total';

export type IntegrationMetrics = Readonly<{
  notification: (source: string, result: 'accepted' | 'refused') => void;
  truncated: (source: string, alerts: number) => void;
}>;

/** Counters in `registry`, shared by every operator app built on it. */
export const integrationMetrics = (registry: Registry): IntegrationMetrics => {
  const notifications =
    (registry.getSingleMetric(NOTIFICATIONS) as Counter<'source' | 'result'> | undefined) ??
    new Counter({
      name: NOTIFICATIONS,
      help: 'Alert notifications answered, by source (alertmanager, grafana) and result',
      labelNames: ['source', 'result'],
      registers: [registry],
    });
  const truncated =
    (registry.getSingleMetric(TRUNCATED) as Counter<'source'> | undefined) ??
    new Counter({
      name: TRUNCATED,
      help: 'Alerts the sender left out of its notifications (truncatedAlerts), by source',
      labelNames: ['source'],
      registers: [registry],
    });
  return {
    notification: (source, result) => notifications.labels(source, result).inc(),
    truncated: (source, alerts) => truncated.labels(source).inc(alerts),
  };
};
