// Prometheus request metrics of the public API (operations.md: request counts and latency per route).
// Labels are route patterns, never raw paths, so the series count stays bounded.
import { Counter, Histogram, type Registry } from 'prom-client';

export type HttpMetrics = Readonly<{
  requests: Counter<'route' | 'status'>;
  duration: Histogram<'route'>;
}>;

const REQUESTS = 'http_requests_total';
const DURATION = 'http_request_duration_seconds';

/** Registers the metrics in `registry`, or returns the ones already registered there. */
export const createHttpMetrics = (registry: Registry): HttpMetrics => {
  const requests = registry.getSingleMetric(REQUESTS) as Counter<'route' | 'status'> | undefined;
  const duration = registry.getSingleMetric(DURATION) as Histogram<'route'> | undefined;
  if (requests && duration) return { requests, duration };
  return {
    requests: new Counter({
      name: REQUESTS,
      help: 'HTTP requests answered, by route pattern and status code',
      labelNames: ['route', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: DURATION,
      help: 'HTTP request duration in seconds, by route pattern',
      labelNames: ['route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
};
