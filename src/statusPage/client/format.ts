// Numbers, durations, dates and times for people: localised with Intl, times in the reader's
// time zone or in UTC (the footer switch), and UTC days (the API's dates) always as UTC days.
let utc = false;
const listeners: (() => void)[] = [];

export const timeZone = {
  isUtc: (): boolean => utc,
  set: (value: boolean): void => {
    utc = value;
    for (const listener of listeners) listener();
  },
  onChange: (listener: () => void): void => {
    listeners.push(listener);
  },
  /** The reader's zone name, e.g. Europe/Paris. */
  local: (): string => Intl.DateTimeFormat().resolvedOptions().timeZone,
};

const zone = (): string | undefined => (utc ? 'UTC' : undefined);

export const percent = (value: number): string =>
  new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 }).format(value) + ' %';

export const integer = (value: number): string => new Intl.NumberFormat().format(value);

export const ms = (value: number): string => `${integer(value)} ms`;

const UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400],
  ['h', 3_600],
  ['min', 60],
  ['s', 1],
];

/** Seconds in the largest unit and the next one: "1 h 12 min", "3 d", "45 s", "0 s". */
export const duration = (seconds: number): string => {
  const total = Math.max(0, Math.floor(seconds));
  const first = UNITS.findIndex(([, size]) => total >= size);
  const big = UNITS[first];
  if (!big) return '0 s';
  const count = Math.floor(total / big[1]);
  const next = UNITS[first + 1];
  const rest = next ? Math.floor((total - count * big[1]) / next[1]) : 0;
  return `${integer(count)} ${big[0]}` + (next && rest > 0 ? ` ${integer(rest)} ${next[0]}` : '');
};

/** A timestamp with date and time, in the chosen zone, naming the zone. */
export const dateTime = (iso: string): string =>
  new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zone(),
    timeZoneName: 'short',
  }).format(new Date(iso));

/** Only the clock time, for chart axes. */
export const clock = (at: Date): string =>
  new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: zone() }).format(at);

/** A UTC day (YYYY-MM-DD) such as "Nov 22, 2026". */
export const day = (date: string): string =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

/** A month (YYYY-MM) such as "November 2026". */
export const month = (yyyyMm: string): string =>
  new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${yyyyMm}-01T00:00:00Z`),
  );

/** The exact instant in UTC, for tooltips. */
export const utcTitle = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export const capitalise = (text: string): string =>
  text.charAt(0).toUpperCase() + text.slice(1).replace(/_/g, ' ');
