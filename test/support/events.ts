// Builders for the events of ingest.md, with the defaults a test rarely cares about.
import { StoredEvent, type ProjectedEvent } from '../../src/events/storedEvent.ts';
export const pageConfigured = (
  page: string,
  data: Record<string, unknown> = {},
  at = '2026-11-01T00:00:00Z',
) => ({
  type: 'page.configured',
  page,
  at,
  data: { title: `Page ${page}`, plan: 'growth', ...data },
});

export const monitorConfigured = (
  page: string,
  monitorId: number,
  data: Record<string, unknown> = {},
  at = '2026-11-01T00:00:00Z',
) => ({
  type: 'monitor.configured',
  page,
  at,
  data: { monitor_id: monitorId, name: `Monitor ${monitorId}`, ...data },
});

export const check = (page: string, monitorId: number, at: string, status = 'up', responseTimeMs = 100) => ({
  type: 'check.recorded',
  page,
  at,
  data: { monitor_id: monitorId, status, response_time_ms: responseTimeMs },
});

/** Two pages (alpha, beta) with one monitor each and one check each at 11:00 (alpha's `status`). */
export const twoPagesWithChecks = (alphaStatus = 'up') => [
  pageConfigured('alpha'),
  monitorConfigured('alpha', 1),
  pageConfigured('beta'),
  monitorConfigured('beta', 2),
  check('alpha', 1, '2026-11-22T11:00:00Z', alphaStatus, 80),
  check('beta', 2, '2026-11-22T11:00:00Z', 'up', 30),
];

/** A stored event as the projector reads it back: parsed, `at` in epoch ms (test fixtures write ISO). */
export const projectedEvent = (raw: Record<string, unknown> & { at: string }): ProjectedEvent => {
  const event = StoredEvent.parse(raw);
  return { ...event, at: Date.parse(event.at) };
};
