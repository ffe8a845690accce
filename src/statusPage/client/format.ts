// Numbers, durations, dates and times for people, in the page's locale (projections/locale):
// times in the reader's time zone or in UTC (the footer switch), and UTC days (the API's dates)
// always as UTC days.
import { formats } from './i18n.ts';

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

export const percent = (value: number): string => formats().percent(value);

export const integer = (value: number): string => formats().integer(value);

export const ms = (value: number): string => formats().ms(value);

/** Seconds in the largest unit and the next one: "1 hr 12 min", "3 days", "45 sec", "0 sec" (en). */
export const duration = (seconds: number): string => formats().duration(seconds);

/** A timestamp with date and time, in the chosen zone, naming the zone. */
export const dateTime = (iso: string): string => formats().dateTime(new Date(iso), zone());

/** Only the clock time, for chart axes. */
export const clock = (at: Date): string => formats().clock(at, zone());

/** A UTC day (YYYY-MM-DD) such as "Nov 22, 2026". */
export const day = (date: string): string => formats().day(date);

/** A UTC day in the long style, such as "November 22, 2026". */
export const longDay = (date: string): string => formats().longDay(date);

/** A month (YYYY-MM) such as "November 2026". */
export const month = (yyyyMm: string): string => formats().month(yyyyMm);

/** A weekday of a UTC date. */
export const weekday = (at: Date, style: 'short' | 'long'): string => formats().weekday(at, style);

/** The exact instant in UTC, for tooltips. */
export const utcTitle = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
