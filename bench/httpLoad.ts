// One autocannon run against a URL, reduced to the figures the report shows. Latencies are taken
// from every response (2xx and 304 alike) at the client's full resolution: autocannon's own
// histogram counts whole milliseconds of 2xx answers only, too coarse once answers take well
// under a millisecond (a p99 of "1 ms" could be 0.2 ms or 1.9 ms).
import autocannon from 'autocannon';
import { percentile } from './ingestPhase.ts';

export type LoadResult = Readonly<{
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Responses by class; errors counts connection errors and timeouts. */
  ok: number;
  notModified: number;
  failed: number;
  errors: number;
}>;

export type LoadOptions = Readonly<{
  connections: number;
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
}>;

export const httpLoad = async (url: string, options: LoadOptions): Promise<LoadResult> => {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: options.connections,
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 5 }),
        headers: options.headers ?? {},
        timeout: 120,
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  const ms = (p: number) => Math.round(percentile(latencies, p) * 100) / 100;
  const requests = result.requests.total;
  return {
    rps: requests / Math.max(result.duration, 0.001),
    p50: ms(50),
    p99: ms(99),
    requests,
    ok: result['2xx'],
    notModified: result['3xx'],
    failed: result['4xx'] + result['5xx'],
    errors: result.errors,
  };
};

/** A short run so the server's JIT and connection pools are warm before measuring. */
export const warmUp = async (url: string, headers: Record<string, string> = {}): Promise<void> => {
  await autocannon({ url, connections: 10, amount: 1_000, headers, timeout: 30 });
};
