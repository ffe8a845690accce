// A reference for the figures of decisions.md, computed the slow and obvious way from a page's
// complete, sorted check history: no buckets, no stored timelines, nothing shared with the
// projector but the rules. The property test compares the API's answers with it.
export type Status = 'up' | 'down' | 'degraded';
/** One check; `seq` is its order in the log (ties at one instant go by it). */
export type OracleCheck = Readonly<{ at: number; seq: number; status: Status; rt: number }>;
export type OracleMonitor = Readonly<{ id: number; name: string; checks: readonly OracleCheck[] }>;

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const PERIODS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, '90d': 90 * DAY, '1y': 365 * DAY } as const;
type Period = keyof typeof PERIODS;
export const PERIOD_NAMES = Object.keys(PERIODS) as Period[];

/** 100 × part ÷ whole, rounded half up to 3 decimals (with one division, as decisions.md asks). */
const percent = (part: number, whole: number) => Math.round((part * 100_000) / whole) / 1000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const minuteText = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const floor = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const mean = (values: readonly number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);

const sorted = (checks: readonly OracleCheck[]) => [...checks].sort((a, b) => a.at - b.at || a.seq - b.seq);

/** Failures: maximal runs of down checks, each from its first check to the next other check (or now). */
const failuresOf = (checks: readonly OracleCheck[], now: number): { start: number; end: number }[] => {
  const failures: { start: number; end: number }[] = [];
  let start: number | null = null;
  for (const check of sorted(checks)) {
    if (check.status === 'down') start ??= check.at;
    else if (start !== null) {
      failures.push({ start, end: check.at });
      start = null;
    }
  }
  if (start !== null) failures.push({ start, end: now });
  return failures.filter((f) => f.end > f.start); // a run that lasted no time was never down
};

const overlap = (f: { start: number; end: number }, from: number, to: number) =>
  Math.max(0, Math.min(f.end, to) - Math.max(f.start, from));

const downMs = (m: OracleMonitor, from: number, to: number, now: number) =>
  failuresOf(m.checks, now).reduce((sum, f) => sum + overlap(f, from, to), 0);

export const availability = (m: OracleMonitor, period: Period, now: number) => {
  const length = PERIODS[period];
  const from = now - length;
  const total = length / 1000;
  const downtime = Math.floor(downMs(m, from, now, now) / 1000);
  const failures = failuresOf(m.checks, now).filter((f) => f.start < now && f.end > from).length;
  const up = total - downtime;
  const days = [];
  for (let day = floor(now - 1, DAY); day + DAY > from; day -= DAY) {
    const partFrom = Math.max(day, from);
    const partTo = Math.min(day + DAY, now);
    const down = Math.floor(downMs(m, partFrom, partTo, now) / 1000);
    const part = partTo - partFrom;
    days.push({
      date: date(day),
      uptime_percentage: percent(part - down * 1000, part),
      downtime_seconds: down,
    });
  }
  return {
    monitor_id: m.id,
    monitor_name: m.name,
    period,
    availability: {
      uptime_percentage: percent(up, total),
      downtime_seconds: downtime,
      total_seconds: total,
      mtbf_seconds: failures === 0 ? up : Math.floor(up / failures),
      mttr_seconds: failures === 0 ? 0 : Math.floor(downtime / failures),
      incident_count: failures,
    },
    daily_breakdown: days,
  };
};

/** Up and observed ms of [from, to): only after the first check and before now; null when none. */
const observation = (m: OracleMonitor, from: number, to: number, now: number) => {
  if (m.checks.length === 0) return null;
  const start = Math.max(from, Math.min(...m.checks.map((c) => c.at)));
  const end = Math.min(to, now);
  if (end <= start) return null;
  return { up: end - start - downMs(m, start, end, now), observed: end - start };
};

const hourly = (m: OracleMonitor, dayStart: number, now: number) => {
  const points = [];
  for (let hour = 0; hour < 24; hour++) {
    const start = dayStart + hour * HOUR;
    const inHour = m.checks.filter((c) => c.at >= start && c.at < start + HOUR);
    if (inHour.length === 0) continue;
    const seen = observation(m, start, start + HOUR, now);
    const uptime = seen === null ? 100 : percent(seen.up, seen.observed);
    points.push({ hour, avg_response: mean(inHour.map((c) => c.rt)), uptime });
  }
  return points;
};

const WORST: Record<Status, number> = { up: 0, degraded: 1, down: 2 };

export const minuteData = (m: OracleMonitor, now: number) => {
  const points = [];
  const current = floor(now, MINUTE);
  for (let minute = current - 59 * MINUTE; minute <= current; minute += MINUTE) {
    const inMinute = m.checks.filter((c) => c.at >= minute && c.at < minute + MINUTE);
    if (inMinute.length === 0) continue;
    const worst = inMinute.reduce<Status>((a, c) => (WORST[c.status] > WORST[a] ? c.status : a), 'up');
    points.push({
      minute: minuteText(minute),
      response_time: mean(inMinute.map((c) => c.rt)),
      status: worst,
    });
  }
  return points;
};

const stateOf = (m: OracleMonitor): Status => sorted(m.checks).at(-1)?.status ?? 'up';

/** The page figure of one day: the mean of the monitors' day figures; null when none has data. */
const pageDay = (monitors: readonly OracleMonitor[], day: number, now: number): number | null => {
  const figures = [...monitors]
    .sort((a, b) => a.id - b.id)
    .flatMap((m) => {
      const seen = observation(m, day, day + DAY, now);
      return seen === null ? [] : [(seen.up * 100_000) / seen.observed];
    });
  if (figures.length === 0) return null;
  return Math.round(figures.reduce((a, b) => a + b, 0) / figures.length) / 1000;
};

/** Every monitor has the default impact (partial): down ones make a partial or, all down, a major outage. */
const overall = (monitors: readonly OracleMonitor[]) => {
  const states = monitors.map(stateOf);
  if (states.length > 0 && states.every((s) => s === 'down')) return 'major_outage';
  if (states.includes('down')) return 'partial_outage';
  if (states.includes('degraded')) return 'degraded_performance';
  return 'operational';
};

/**
 * The instant an answer assembled when read is made for, asked in the minute of `clock`: that
 * minute's start, or the page's latest event (its checks, and `otherEvents`' times) when later.
 */
export const assemblyInstant = (
  monitors: readonly OracleMonitor[],
  clock: number,
  otherEvents: readonly number[] = [],
): number =>
  Math.max(floor(clock, MINUTE), ...otherEvents, ...monitors.flatMap((m) => m.checks.map((c) => c.at)));

/** What a clean rebuild knows at `now`: the checks dated up to it (a check dated later is no fact yet). */
const knownAt = (monitors: readonly OracleMonitor[], now: number): OracleMonitor[] =>
  monitors.map((m) => ({ ...m, checks: m.checks.filter((c) => c.at <= now) }));

/** Monitors without a position: in id order. The figures at `now`, from the checks dated up to it. */
export const charts = (all: readonly OracleMonitor[], now: number) => {
  const monitors = knownAt(all, now);
  const today = floor(now, DAY);
  const byId = [...monitors].sort((a, b) => a.id - b.id);
  const globalDaily = [];
  for (let i = 0; i < 90; i++) {
    const uptime = pageDay(monitors, today - i * DAY, now);
    if (uptime !== null) globalDaily.push({ date: date(today - i * DAY), uptime });
  }
  return {
    monitors: byId.map((m) => {
      const todays = m.checks.filter((c) => c.at >= today && c.at < today + DAY);
      return {
        id: m.id,
        name: m.name,
        state: stateOf(m),
        avg_response_time_today: todays.length === 0 ? 0 : mean(todays.map((c) => c.rt)),
        hourly_data: hourly(m, today, now),
        minute_data: minuteData(m, now),
        yesterday_hourly_data: hourly(m, today - DAY, now),
      };
    }),
    overall: overall(monitors),
    globalDaily,
    timestamp: Math.floor(now / 1000),
  };
};

/** rtm=n: per minute, the rounded mean of every check of the page; gaps carry the previous value. */
export const rtm = (monitors: readonly OracleMonitor[], n: number, now: number): number[] => {
  const current = floor(now, MINUTE);
  const all = monitors.flatMap((m) => m.checks);
  const raw = Array.from({ length: n }, (_, i) => {
    const minute = current - (n - 1 - i) * MINUTE;
    const inMinute = all.filter((c) => c.at >= minute && c.at < minute + MINUTE);
    return inMinute.length === 0 ? null : mean(inMinute.map((c) => c.rt));
  });
  let previous = raw.find((v) => v !== null) ?? 0;
  return raw.map((v) => (previous = v ?? previous));
};

/** upd=n: the page figure of each of the n days ending today, oldest first; 100 without data. */
export const upd = (monitors: readonly OracleMonitor[], n: number, now: number): number[] => {
  const today = floor(now, DAY);
  return Array.from({ length: n }, (_, i) => pageDay(monitors, today - (n - 1 - i) * DAY, now) ?? 100);
};
