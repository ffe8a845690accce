// Numbers, durations, dates and times for people in one locale, all through Intl. `zone` is the
// time zone of instants (undefined: the runtime's, i.e. the reader's in a browser); UTC days (the
// API's dates) are always shown as UTC days.
import type { Locale } from './locales.ts';

const UNITS = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

export type Formats = ReturnType<typeof makeFormats>;

// Intl formatters are ICU objects in native memory, costly to build: each is made once per locale,
// options and zone, and kept (server renders would otherwise build several per request).
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormat = (locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat => {
  const key = `${locale}|${JSON.stringify(options)}`;
  let found = dateFormats.get(key);
  if (found === undefined) dateFormats.set(key, (found = new Intl.DateTimeFormat(locale, options)));
  return found;
};

const DATE_AND_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};

const formatsByLocale = new Map<Locale, Formats>();
export const formatsFor = (locale: Locale): Formats => {
  let found = formatsByLocale.get(locale);
  if (found === undefined) formatsByLocale.set(locale, (found = makeFormats(locale)));
  return found;
};

const makeFormats = (locale: Locale) => {
  const numbers = new Intl.NumberFormat(locale);
  const percents = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 3 });
  const fixedPercents = new Intl.NumberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 3,
    maximumFractionDigits: 3,
  });
  const unit = new Map(
    [...UNITS.map(([name]) => name), 'millisecond'].map((name) => [
      name,
      new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }),
    ]),
  );
  const inUnit = (name: string, value: number): string => unit.get(name)?.format(value) ?? String(value);
  const utcDay = (date: string): Date => new Date(`${date}T00:00:00Z`);
  return {
    integer: (value: number): string => numbers.format(value),
    /** 99.95 → "99.95%" (en), "99,95 %" (de, fr). */
    percent: (value: number): string => percents.format(value / 100),
    /** Always three decimals, for reports where columns line up. */
    percentFixed: (value: number): string => fixedPercents.format(value / 100),
    ms: (value: number): string => inUnit('millisecond', Math.round(value)),
    /** Whole seconds in the largest unit and the next one: "1 hr, 12 min" (en), "3 Tg." (de). */
    duration: (seconds: number): string => {
      const total = Math.max(0, Math.floor(seconds));
      const first = UNITS.findIndex(([, size]) => total >= size);
      const big = UNITS[first];
      if (!big) return inUnit('second', 0);
      const count = Math.floor(total / big[1]);
      const next = UNITS[first + 1];
      const rest = next ? Math.floor((total - count * big[1]) / next[1]) : 0;
      return inUnit(big[0], count) + (next && rest > 0 ? ` ${inUnit(next[0], rest)}` : '');
    },
    /** Every unit down to seconds, for exact report figures; negative values keep their sign. */
    durationExact: (seconds: number): string => {
      let rest = Math.abs(Math.trunc(seconds));
      const parts: string[] = [];
      for (const [name, size] of UNITS) {
        const n = Math.floor(rest / size);
        rest -= n * size;
        if (n > 0) parts.push(inUnit(name, n));
      }
      const text = parts.length === 0 ? inUnit('second', 0) : parts.join(' ');
      return seconds < 0 && parts.length > 0 ? `−${text}` : text;
    },
    /** An instant with date and time, naming the zone. */
    dateTime: (at: Date, zone?: string): string =>
      dateFormat(locale, { ...DATE_AND_TIME, timeZone: zone, timeZoneName: 'short' }).format(at),
    /** An instant with date and time, without the zone's name (the text names it). */
    dateTimePlain: (at: Date, zone?: string): string =>
      dateFormat(locale, { ...DATE_AND_TIME, timeZone: zone }).format(at),
    /** Only the clock time. */
    clock: (at: Date, zone?: string): string =>
      dateFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: zone }).format(at),
    /** A UTC day (YYYY-MM-DD) in the medium style: "Nov 22, 2026", "22.11.2026". */
    day: (date: string): string =>
      dateFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(utcDay(date)),
    /** A UTC day in the long style: "November 22, 2026". */
    longDay: (date: string): string =>
      dateFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(utcDay(date)),
    /** A UTC day as weekday and date without the year: "Saturday, October 31". */
    weekdayDate: (date: string): string =>
      dateFormat(locale, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        timeZone: 'UTC',
      }).format(utcDay(date)),
    /** A weekday of a UTC date. */
    weekday: (at: Date, style: 'short' | 'long'): string =>
      dateFormat(locale, { weekday: style, timeZone: 'UTC' }).format(at),
    /** A month (YYYY-MM): "November 2026". */
    month: (yyyyMm: string): string =>
      dateFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utcDay(`${yyyyMm}-01`)),
    /** A month's name alone (1 = January). */
    monthName: (month: number): string =>
      dateFormat(locale, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, month - 1, 1))),
  };
};
