// One autocannon run against a URL, reduced to the figures the report shows.
import autocannon from 'autocannon';

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
  const result = await autocannon({
    url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 5 }),
    headers: options.headers ?? {},
    timeout: 120,
  });
  const requests = result.requests.total;
  return {
    rps: requests / Math.max(result.duration, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
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
