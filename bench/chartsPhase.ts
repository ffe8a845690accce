// The charts response served from the projection against the same response computed from
// PostgreSQL on every request, with 1 day and with 1 year of minute checks; and how the
// projection's read cost changes from 1 day to 1 year of history.
import type { Figure } from './report.ts';
import { httpLoad, warmUp, type LoadResult } from './httpLoad.ts';

export type ChartsSet = Readonly<{ label: string; slug: string; table: string; monitors: readonly number[] }>;

const CONNECTIONS = 4; // 2 cores × 2: enough to saturate either path
const MIN_REQUESTS = 8;

/** Slow paths get at least MIN_REQUESTS complete answers, however long that takes. */
const adaptiveLoad = async (url: string, duration: number): Promise<LoadResult> => {
  const timed = await httpLoad(url, { connections: CONNECTIONS, duration });
  if (timed.requests >= MIN_REQUESTS) return timed;
  return httpLoad(url, { connections: CONNECTIONS, amount: MIN_REQUESTS });
};

const checked = (what: string, r: LoadResult): LoadResult => {
  if (r.ok !== r.requests || r.errors > 0)
    throw new Error(`${what}: ${r.requests - r.ok} answers were not 200, ${r.errors} errors`);
  return r;
};

export const chartsPhase = async (
  targets: { app: string; sql: string },
  sets: readonly [ChartsSet, ChartsSet],
  options: { duration: number; note: string; log: (line: string) => void },
): Promise<Figure[]> => {
  const urls = sets.map((set) => ({
    projection: `${targets.app}/api/status/${set.slug}/charts`,
    sql: `${targets.sql}/charts/${set.table}?monitors=${set.monitors.join(',')}`,
  }));
  const bytes: number[] = [];
  for (const url of urls) {
    await warmUp(url.projection);
    bytes.push((await (await fetch(url.projection)).arrayBuffer()).byteLength);
    await httpLoad(url.sql, { connections: 1, amount: 2 }); // warm caches and the plan
  }
  // The two projection runs alternate (short, long, short, long) so drift hits both alike.
  const projection: LoadResult[][] = [[], []];
  for (let round = 0; round < 2; round += 1)
    for (const [i, url] of urls.entries())
      projection[i]!.push(
        checked(
          `projection ${sets[i]!.label}`,
          await httpLoad(url.projection, { connections: CONNECTIONS, duration: options.duration }),
        ),
      );
  const perRequest: LoadResult[] = [];
  for (const [i, url] of urls.entries())
    perRequest.push(checked(`SQL ${sets[i]!.label}`, await adaptiveLoad(url.sql, options.duration)));
  const combined = projection.map((runs) => ({
    rps: runs.reduce((a, r) => a + r.rps, 0) / runs.length,
    p50: runs.reduce((a, r) => a + r.p50, 0) / runs.length,
    p99: Math.max(...runs.map((r) => r.p99)),
  }));
  const figures: Figure[] = sets.map((set, i) => {
    const p = combined[i]!;
    const q = perRequest[i]!;
    options.log(
      `  charts ${set.label}: projection ${Math.round(p.rps)} req/s, SQL ${q.rps.toFixed(2)} req/s`,
    );
    return {
      section: 'charts',
      name: `charts, ${set.monitors.length} monitors, ${set.label}: projection`,
      unit: 'req/s',
      value: p.rps,
      baseline: { name: 'SQL per request', value: q.rps },
      ratio: p.rps / q.rps,
      target: { text: '≥ 20× per-request SQL', met: p.rps >= 20 * q.rps },
      detail: {
        p50_ms: p.p50,
        p99_ms: p.p99,
        body_bytes: bytes[i]!,
        sql_p50_ms: q.p50,
        sql_p99_ms: q.p99,
        sql_requests: q.requests,
      },
    };
  });
  const costRatio = combined[0]!.rps / combined[1]!.rps;
  figures.push({
    section: 'charts',
    name: `projection read cost, ${sets[1].label} ÷ ${sets[0].label}`,
    unit: '×',
    value: costRatio,
    baseline: { name: 'same for SQL', value: perRequest[0]!.rps / perRequest[1]!.rps },
    ratio: null,
    target: { text: '≤ 1.2', met: costRatio <= 1.2 },
    detail: { body_bytes_short: bytes[0]!, body_bytes_long: bytes[1]!, note: options.note },
  });
  return figures;
};
