// Incident history by month: the calendar of daily counts beside the month's incidents with
// their full timelines; previous and next month; a day of the calendar narrows the list.
import { quietly, type Api } from './api.ts';
import { drawCalendar } from './calendar.ts';
import { incidentCard } from './cards.ts';
import { h } from './dom.ts';
import { day, month as monthName } from './format.ts';
import { t } from './i18n.ts';
import { serverClock } from './serverClock.ts';
import type { DailyCounts, IncidentMonth } from './types.ts';

type History = Readonly<{ el: HTMLElement; refresh: () => Promise<void> }>;

const shiftMonth = (yyyyMm: string, by: number): string => {
  const date = new Date(`${yyyyMm}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + by);
  return date.toISOString().slice(0, 7);
};

export const createHistory = (api: Api, slug: string): History => {
  let month = '';
  let picked: string | null = null;
  let data: { counts: DailyCounts; list: IncidentMonth } | null = null;

  const title = h('h3', { class: 'month-title', 'aria-live': 'polite' });
  const prev = h('button', { type: 'button', class: 'nav', 'aria-label': t('history.previous') }, '‹');
  const next = h('button', { type: 'button', class: 'nav', 'aria-label': t('history.next') }, '›');
  const calendarBox = h('div', { class: 'calendar-box' });
  const list = h('div', { class: 'history-list' });
  const el = h(
    'section',
    { class: 'card', 'aria-labelledby': 'history-title' },
    h('div', { class: 'card-head' }, h('h2', { id: 'history-title' }, t('history.title'))),
    h(
      'div',
      { class: 'history' },
      h('div', { class: 'calendar-col' }, h('div', { class: 'month-nav' }, prev, title, next), calendarBox),
      list,
    ),
  );

  const render = (): void => {
    if (data === null) return;
    title.textContent = monthName(month);
    next.disabled = month >= serverClock.month();
    calendarBox.replaceChildren(
      drawCalendar(data.counts, picked, (date) => {
        picked = picked === date ? null : date;
        render();
      }),
    );
    const incidents = data.list.incidents.filter((i) => picked === null || i.started_at.startsWith(picked));
    const count = incidents.length;
    const heading = h(
      'p',
      { class: 'list-scope' },
      picked === null
        ? t('history.inMonth', { count, month: monthName(month) })
        : t('history.onDay', { count, day: day(picked) }),
    );
    if (picked !== null) {
      const all = h('button', { type: 'button', class: 'link-button' }, t('history.wholeMonth'));
      all.addEventListener('click', () => {
        picked = null;
        render();
      });
      heading.append(' · ', all);
    }
    list.replaceChildren(
      heading,
      ...(incidents.length === 0
        ? [h('p', { class: 'muted empty' }, t('history.none'))]
        : incidents.map((incident) => incidentCard(incident, true))),
    );
  };

  const load = async (target: string): Promise<void> => {
    const base = `/api/status-pages/${slug}/incidents`;
    const [counts, incidents] = await Promise.all([
      api<DailyCounts>(`${base}/daily-counts`, { month: target }),
      api<IncidentMonth>(`${base}/filter`, { month: target }),
    ]);
    if (target !== month) picked = null;
    month = target;
    data = { counts, list: incidents };
    render();
  };

  prev.addEventListener('click', () => {
    quietly(load(shiftMonth(month, -1)));
  });
  next.addEventListener('click', () => {
    quietly(load(shiftMonth(month, 1)));
  });

  return { el, refresh: () => load(month || serverClock.month()) };
};
