// api_processes_alive and api_processes_configured (operations.md, "Metrics"): how many API
// processes of this machine are up against WEB_CONCURRENCY. A process that keeps dying shows as
// alive below configured even though each one is replaced at once.
import { Gauge, type Registry } from 'prom-client';

export const registerProcessGauges = (registry: Registry, configured: number, alive: () => number): void => {
  new Gauge({
    name: 'api_processes_configured',
    help: 'API processes this machine runs (WEB_CONCURRENCY)',
    registers: [registry],
  }).set(configured);
  new Gauge({
    name: 'api_processes_alive',
    help: 'API processes of this machine currently running',
    registers: [registry],
    collect() {
      this.set(alive());
    },
  });
};
