// `live_streams_open` on /metrics: the live streams this process holds (or is opening). Summed
// over the API processes of a clustered `npm run serve`.
import { Gauge, type Registry } from 'prom-client';

export const registerStreamGauge = (registry: Registry, streams: { open: () => number }): void => {
  new Gauge({
    name: 'live_streams_open',
    help: 'Live streams (GET /api/embed/stream) open in this process',
    registers: [registry],
    collect() {
      this.set(streams.open());
    },
  });
};
