// Every distinct valid URL of the demo page that an answer, a cache entry or a memo entry can be
// kept for: each is a page's real answer, so none is refused or folded into another's key.
import { DEMO_MONITORS, DEMO_SLUG } from '../src/demo/demoEvents.ts';

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);
const optional = (name: string, values: readonly number[]): string[] => [
  '',
  ...values.map((v) => `&${name}=${v}`),
];

const months = (): string[] =>
  range(2000, 2099).flatMap((year) => range(1, 12).map((m) => `${year}-${String(m).padStart(2, '0')}`));

/** SLA periods the reports reach (three years back): months, quarters and years. */
const slaPeriods = (now: Date): string[] => {
  const year = now.getUTCFullYear();
  const years = range(year - 3, year);
  const currentMonth = `${year}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return [
    ...years.map(String),
    ...years.flatMap((y) => range(1, 4).map((q) => `${y}-Q${q}`)),
    ...years.flatMap((y) => range(1, 12).map((m) => `${y}-${String(m).padStart(2, '0')}`)),
  ].filter((period) => period.slice(0, 7) <= currentMonth);
};

export const validVariants = (now = new Date()): string[] => {
  const page = `/api/status-pages/${DEMO_SLUG}`;
  const embed = optional('inc', [1]).flatMap((inc) =>
    optional('rtm', range(1, 240)).flatMap((rtm) =>
      optional('upd', range(1, 30)).map((upd) => `/api/embed/status?slug=${DEMO_SLUG}${inc}${rtm}${upd}`),
    ),
  );
  const lists = range(1, 10).flatMap((n) =>
    range(1, 100).flatMap((size) => [
      `${page}/incidents?page=${n}&page_size=${size}`,
      ...['all', 'scheduled', 'in_progress', 'completed', 'cancelled'].map(
        (status) => `${page}/maintenances?page=${n}&page_size=${size}&status=${status}`,
      ),
    ]),
  );
  const byMonth = months().flatMap((month) =>
    ['incidents/filter', 'incidents/daily-counts', 'maintenances/filter', 'maintenances/daily-counts'].map(
      (route) => `${page}/${route}?month=${month}`,
    ),
  );
  const availability = DEMO_MONITORS.flatMap((m) =>
    ['24h', '7d', '30d', '90d', '1y'].map(
      (period) => `${page}/monitors/${m.id}/availability?period=${period}`,
    ),
  );
  const sla = slaPeriods(now).flatMap((period) => [
    `${page}/sla?period=${period}`,
    `${page}/sla?period=${period}&format=csv`,
    `/s/${DEMO_SLUG}/sla/${period}`,
  ]);
  const single = [
    `/api/status/${DEMO_SLUG}/charts`,
    `/api/status-page/${DEMO_SLUG}/minute-data`,
    `/api/embed/markdown?slug=${DEMO_SLUG}`,
    `/badge/${DEMO_SLUG}.svg`,
    `/s/${DEMO_SLUG}`,
    `/s/${DEMO_SLUG}/feed.atom`,
    `/s/${DEMO_SLUG}/feed.rss`,
  ];
  return [...embed, ...lists, ...byMonth, ...availability, ...sla, ...single];
};
