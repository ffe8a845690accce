// Links to the printable SLA reports of this month and the last, in the page's own time zone:
// the API's current report says which month that is (the page's zone is not known here).
import type { Api } from './api.ts';
import { h } from './dom.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The month before `YYYY-MM`. */
const previousMonth = (label: string): string => {
  const [year, month] = label.split('-').map(Number) as [number, number];
  return month === 1 ? `${String(year - 1)}-12` : `${String(year)}-${String(month - 1).padStart(2, '0')}`;
};

const monthName = (label: string): string =>
  `${MONTHS[Number(label.slice(5)) - 1] ?? ''} ${label.slice(0, 4)}`;

export const drawSlaLinks = async (api: Api, slug: string): Promise<HTMLElement> => {
  const { period } = await api<{ period: string }>(`/api/status-pages/${slug}/sla`);
  const link = (label: string, text: string) => h('a', { href: `/s/${slug}/sla/${label}` }, text);
  return h(
    'p',
    { class: 'muted sla-links' },
    'SLA report: ',
    link(period, `${monthName(period)} (so far)`),
    ' · ',
    link(previousMonth(period), monthName(previousMonth(period))),
  );
};
