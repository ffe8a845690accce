// A month as a grid of UTC days, Monday first, each day with its incident count. Days with
// incidents are buttons that show only that day's incidents.
import { h } from './dom.ts';
import { integer, longDay, weekday } from './format.ts';
import { t } from './i18n.ts';
import type { DailyCounts } from './types.ts';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7].map((d) => new Date(Date.UTC(2024, 0, d))); // Mon 1 Jan 2024

const dayLabel = (date: string, count: number): string => t('calendar.day', { date: longDay(date), count });

export const drawCalendar = (
  counts: DailyCounts,
  selected: string | null,
  onPick: (date: string) => void,
): HTMLElement => {
  const dates = Object.keys(counts.counts).sort();
  const first = new Date(`${counts.start_date}T00:00:00Z`);
  const lead = (first.getUTCDay() + 6) % 7; // Monday = 0
  const cells: (string | null)[] = [...Array<null>(lead).fill(null), ...dates];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
  const cell = (date: string | null): HTMLElement => {
    if (date === null) return h('td', { class: 'pad' });
    const count = counts.counts[date] ?? 0;
    const number = String(Number(date.slice(8)));
    if (count === 0) return h('td', {}, h('span', { class: 'day', 'aria-label': dayLabel(date, 0) }, number));
    const button = h(
      'button',
      {
        type: 'button',
        class: 'day has',
        'aria-pressed': String(date === selected),
        'aria-label': dayLabel(date, count),
      },
      number,
    );
    button.addEventListener('click', () => onPick(date));
    // The badge sits beside the button, not in it: the button's visible text (the day) stays
    // inside its accessible name (WCAG 2.5.3, axe label-content-name-mismatch); the name has the count.
    return h(
      'td',
      { class: 'has-count' },
      button,
      h('span', { class: 'count', 'aria-hidden': 'true' }, integer(count)),
    );
  };
  return h(
    'table',
    { class: 'calendar' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...WEEKDAYS.map((d) => h('th', { scope: 'col', abbr: weekday(d, 'long') }, weekday(d, 'short'))),
      ),
    ),
    h('tbody', {}, ...weeks.map((week) => h('tr', {}, ...week.map(cell)))),
  );
};
