// Links to the printable SLA reports of this month and the last, in the page's own time zone:
// the API's current report says which month that is (the page's zone is not known here). A
// language chosen in the address goes with the links; otherwise the report speaks the page's own.
import type { Api } from './api.ts';
import { h } from './dom.ts';
import { month as monthName } from './format.ts';
import { pageLocale, t, tn } from './i18n.ts';

/** The month before `YYYY-MM`. */
const previousMonth = (label: string): string => {
  const [year, month] = label.split('-').map(Number) as [number, number];
  return month === 1 ? `${String(year - 1)}-12` : `${String(year)}-${String(month - 1).padStart(2, '0')}`;
};

export const drawSlaLinks = async (api: Api, slug: string): Promise<HTMLElement> => {
  const { period } = await api<{ period: string }>(`/api/status-pages/${slug}/sla`);
  const chosen = new URLSearchParams(window.location.search).has('lang');
  const query = chosen ? `?lang=${encodeURIComponent(pageLocale())}` : '';
  const link = (label: string, text: string) => h('a', { href: `/s/${slug}/sla/${label}${query}` }, text);
  return h(
    'p',
    { class: 'muted sla-links' },
    ...tn('footer.sla', {
      current: link(period, t('footer.soFar', { month: monthName(period) })),
      previous: link(previousMonth(period), monthName(previousMonth(period))),
    }),
  );
};
