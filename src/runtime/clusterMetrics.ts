// /metrics of a clustered API: the primary merges its API processes' metrics, asked for over IPC.
import cluster from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';

const REQUEST = 'statuspage:metrics?';
const RESPONSE = 'statuspage:metrics';
const ANSWER_WITHIN_MS = 2_000;

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
type Message = { type?: unknown; id?: unknown; metrics?: MetricsJson };

/** In an API process: answers the primary's requests with this registry's metrics. */
export const answerMetricsRequests = (registry: Registry): void => {
  process.on('message', (message: Message) => {
    if (message.type !== REQUEST) return;
    void registry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ type: RESPONSE, id: message.id, metrics }),
      () => process.send?.({ type: RESPONSE, id: message.id, metrics: [] }),
    );
  });
};

let nextId = 0;

/** One worker's metrics; an API process that does not answer in time is left out, not waited for. */
const askWorker = (worker: NonNullable<typeof cluster.workers>[string]): Promise<MetricsJson> =>
  new Promise((resolve) => {
    if (!worker?.isConnected()) {
      resolve([]);
      return;
    }
    const id = nextId++;
    const done = (metrics: MetricsJson) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(metrics);
    };
    const onMessage = (message: Message) => {
      if (message.type === RESPONSE && message.id === id) done(message.metrics ?? []);
    };
    const timer = setTimeout(() => done([]), ANSWER_WITHIN_MS);
    worker.on('message', onMessage);
    worker.send({ type: REQUEST, id }, (error: Error | null) => {
      if (error) done([]);
    });
  });

/** The primary's registry: its own metrics plus every API process's, merged. */
export class ClusterRegistry extends Registry {
  override async metrics(): Promise<string> {
    const workers = await Promise.all(Object.values(cluster.workers ?? {}).map(askWorker));
    const merged = AggregatorRegistry.aggregate([await this.getMetricsAsJSON(), ...workers]);
    return merged.metrics();
  }
}
