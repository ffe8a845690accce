// The reference for SLA reports (sla-reports.md), written apart from projections/sla: local days
// are found by binary search on the date Intl prints (no offset arithmetic), the timeline is built
// from the raw checks, and every figure comes from one sweep over the elementary segments between
// all breakpoints (period, days, failures, maintenance), with no summaries to combine.
type RawCheck = Readonly<{ at: number; status: 'up' | 'down' | 'degraded' }>;

export type RawMaintenance = Readonly<{
  start: number;
  end: number;
  components: readonly string[];
  started?: number;
  completed?: number;
  cancelled?: number;
}>;

export type OracleMonitor = Readonly<{
  id: number;
  name: string;
  position: number | null;
  target?: number | undefined;
  checks: readonly RawCheck[];
}>;

export type OraclePage = Readonly<{
  slug: string;
  zone: string;
  target: number;
  exclude: boolean;
  monitors: readonly OracleMonitor[];
  maintenances: readonly RawMaintenance[];
}>;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** The local calendar date of instant t, as Intl prints it (YYYY-MM-DD). */
const localDate = (zone: string, t: number): string => {
  let f = dateFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(zone, f);
  }
  return f.format(t);
};

/** The first instant whose local date is `date` or later. */
export const startOfLocalDate = (zone: string, date: string): number => {
  const guess = Date.parse(`${date}T00:00:00Z`);
  let low = guess - 20 * 3_600_000;
  let high = guess + 20 * 3_600_000;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (localDate(zone, mid) >= date) high = mid;
    else low = mid;
  }
  return high;
};

const nextDate = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The first and the day-after-last local dates of a period label. */
const periodDates = (label: string): [string, string] => {
  const [y, rest] = [Number(label.slice(0, 4)), label.slice(5)];
  const month = (yy: number, m: number) =>
    `${String(yy + Math.floor((m - 1) / 12))}-${String(((m - 1) % 12) + 1).padStart(2, '0')}-01`;
  if (rest === '') return [month(y, 1), month(y, 13)];
  if (rest.startsWith('Q')) {
    const q = Number(rest.slice(1));
    return [month(y, q * 3 - 2), month(y, q * 3 + 1)];
  }
  return [month(y, Number(rest)), month(y, Number(rest) + 1)];
};

type Failure = { start: number; end: number };

/** Maximal runs of down checks, each from its first down check to the next check that is not down (or now). */
const failuresOf = (checks: readonly RawCheck[], now: number): Failure[] => {
  const sorted = [...checks].sort((a, b) => a.at - b.at);
  const out: Failure[] = [];
  let open: number | null = null;
  for (const c of sorted) {
    if (c.status === 'down') open ??= c.at;
    else if (open !== null) {
      out.push({ start: open, end: c.at });
      open = null;
    }
  }
  if (open !== null) out.push({ start: open, end: now });
  return out;
};

const roundedPercent = (up: number, counted: number): number => {
  if (counted === 0) return 100;
  // Half up to 3 decimals, with BigInt so nothing is lost.
  const scaled = (BigInt(up) * 200000n + BigInt(counted)) / (2n * BigInt(counted));
  return Number(scaled) / 1000;
};

const floorDiv = (a: number, b: number): number => Number(BigInt(a) / BigInt(b));

export const oracleReport = (page: OraclePage, label: string, now: number): unknown => {
  const asOf = Math.floor(now / 1000) * 1000;
  const [firstDate, afterDate] = periodDates(label);
  const start = startOfLocalDate(page.zone, firstDate);
  const end = startOfLocalDate(page.zone, afterDate);
  const to = Math.min(end, asOf);
  const days: [string, number, number][] = [];
  for (let d = firstDate; d < afterDate; d = nextDate(d)) {
    const ds = startOfLocalDate(page.zone, d);
    const de = startOfLocalDate(page.zone, nextDate(d));
    if (ds >= to) break;
    days.push([d, ds, Math.min(de, to)]);
  }
  const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');
  const ordered = [...page.monitors].sort(
    (a, b) =>
      (a.position === null ? 1 : 0) - (b.position === null ? 1 : 0) ||
      (a.position ?? 0) - (b.position ?? 0) ||
      a.id - b.id,
  );
  const monitors = ordered.map((m) => {
    const target = m.target ?? page.target;
    const windows = page.exclude
      ? page.maintenances
          .filter((w) => w.components.length === 0 || w.components.includes(m.name))
          .map((w) => ({
            start: Math.min(w.start, w.started ?? Infinity),
            end: Math.min(w.end, w.completed ?? Infinity, w.cancelled ?? Infinity),
          }))
          .filter((w) => w.end > w.start)
      : [];
    const failures = failuresOf(m.checks, now);
    const points = new Set<number>([start, to]);
    for (const [, ds, de] of days) points.add(ds).add(de);
    for (const x of [...windows, ...failures]) points.add(x.start).add(x.end);
    const cuts = [...points].filter((p) => p >= start && p <= to).sort((a, b) => a - b);
    let excluded = 0;
    let down = 0;
    const perFailure = new Map<number, number>();
    const perDay = days.map(() => ({ excluded: 0, down: 0 }));
    for (let i = 0; i + 1 < cuts.length; i++) {
      const [a, b] = [cuts[i]!, cuts[i + 1]!];
      const day = days.findIndex(([, ds, de]) => a >= ds && a < de);
      const inWindow = windows.some((w) => w.start <= a && a < w.end);
      const failure = failures.findIndex((f) => f.start <= a && a < f.end);
      if (inWindow) {
        excluded += b - a;
        perDay[day]!.excluded += b - a;
      } else if (failure >= 0) {
        down += b - a;
        perDay[day]!.down += b - a;
        perFailure.set(failure, (perFailure.get(failure) ?? 0) + b - a);
      }
    }
    const total = to - start;
    const counted = total - excluded;
    const count = perFailure.size;
    const downtime = floorDiv(down, 1000);
    const budget = floorDiv(counted * (100000 - Math.round(target * 1000)), 100_000_000);
    return {
      monitor_id: m.id,
      monitor_name: m.name,
      sla_target: target,
      total_seconds: floorDiv(total, 1000),
      excluded_seconds: floorDiv(excluded, 1000),
      downtime_seconds: downtime,
      uptime_percentage: roundedPercent(counted - down, counted),
      incident_count: count,
      mtbf_seconds: count === 0 ? floorDiv(counted - down, 1000) : floorDiv(counted - down, 1000 * count),
      mttr_seconds: count === 0 ? 0 : floorDiv(down, 1000 * count),
      longest_outage_seconds: floorDiv(Math.max(0, ...perFailure.values()), 1000),
      error_budget_seconds: budget,
      error_budget_remaining_seconds: budget - downtime,
      met: budget - downtime >= 0,
      daily: days.map(([date, ds, de], i) => ({
        date,
        total_seconds: floorDiv(de - ds, 1000),
        excluded_seconds: floorDiv(perDay[i]!.excluded, 1000),
        downtime_seconds: floorDiv(perDay[i]!.down, 1000),
        uptime_percentage: roundedPercent(
          de - ds - perDay[i]!.excluded - perDay[i]!.down,
          de - ds - perDay[i]!.excluded,
        ),
      })),
    };
  });
  const complete = asOf >= end;
  return {
    page: page.slug,
    period: label,
    time_zone: page.zone,
    start: iso(start),
    end: iso(end),
    complete,
    as_of: iso(complete ? end : asOf),
    exclude_maintenance: page.exclude,
    met_all: monitors.every((m) => m.met),
    monitors,
  };
};
