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
  if (r.ok !== r.requests || r.errors > 0) throw new Error(`${what}: ${r.requests - r.ok} answers were not 200, ${r.errors} errors`);
  return r;
};

export const chartsPhase = async (
  targets: { app: string; sql: string },
  sets: readonly [ChartsSet, ChartsSet],
  options: { duration: number; note: string; log: (line: string) => void },
): Promise<Figure[]> => {
  const results = [];
  for (const set of sets) {
    const projectionUrl = `${targets.app}/api/status/${set.slug}/charts`;
    const sqlUrl = `${targets.sql}/charts/${set.table}?monitors=${set.monitors.join(',')}`;
    await warmUp(projectionUrl);
    await httpLoad(sqlUrl, { connections: 1, amount: 2 }); // warm caches and the plan
    const projection = checked(`projection ${set.label}`, await httpLoad(projectionUrl, { connections: CONNECTIONS, duration: options.duration }));
    const perRequest = checked(`SQL ${set.label}`, await adaptiveLoad(sqlUrl, options.duration));
    options.log(`  charts ${set.label}: projection ${Math.round(projection.rps)} req/s, SQL ${perRequest.rps.toFixed(2)} req/s`);
    results.push({ set, projection, perRequest });
  }
  const figures: Figure[] = results.map(({ set, projection, perRequest }) => ({
    section: 'charts',
    name: `charts, ${set.monitors.length} monitors, ${set.label}: projection`,
    unit: 'req/s',
    value: projection.rps,
    baseline: { name: 'SQL per request', value: perRequest.rps },
    ratio: projection.rps / perRequest.rps,
    target: { text: '≥ 20× per-request SQL', met: projection.rps >= 20 * perRequest.rps },
    detail: { p50_ms: projection.p50, p99_ms: projection.p99, sql_p50_ms: perRequest.p50, sql_p99_ms: perRequest.p99, sql_requests: perRequest.requests },
  }));
  const [day, year] = results;
  const costRatio = day!.projection.rps / year!.projection.rps;
  figures.push({
    section: 'charts',
    name: `projection read cost, ${year!.set.label} ÷ ${day!.set.label}`,
    unit: '×',
    value: costRatio,
    baseline: { name: 'same for SQL', value: day!.perRequest.rps / year!.perRequest.rps },
    ratio: null,
    target: { text: '≤ 1.2', met: costRatio <= 1.2 },
    detail: { p50_ms_day: day!.projection.p50, p50_ms_year: year!.projection.p50, note: options.note },
  });
  return figures;
};
