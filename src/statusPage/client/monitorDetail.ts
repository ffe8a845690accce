// A monitor's availability over a chosen period (24h … 1y) from the availability endpoint:
// the figures in human units and the daily breakdown as bars.
import { quietly, type Api } from './api.ts';
import { h } from './dom.ts';
import { day, duration, integer, percent } from './format.ts';
import { t } from './i18n.ts';
import { createTabs } from './tabs.ts';
import type { Availability } from './types.ts';
import { createUptimeBars } from './uptimeBars.ts';

const periods = () =>
  [
    { value: '24h', text: t('period.24h') },
    { value: '7d', text: t('period.7d') },
    { value: '30d', text: t('period.30d') },
    { value: '90d', text: t('period.90d') },
    { value: '1y', text: t('period.1y') },
  ] as const;

export type MonitorDetail = Readonly<{ el: HTMLElement; refresh: () => Promise<void> }>;

const stat = (name: string, value: string, note: string): HTMLElement =>
  h('div', { class: 'stat' }, h('dt', {}, name), h('dd', {}, value, h('small', {}, note)));

export const createMonitorDetail = (api: Api, path: string, name: string): MonitorDetail => {
  const body = h('div', { class: 'detail-body' });
  let loaded: Availability | null = null;
  const tabs = createTabs(t('detail.period', { name }), periods(), (period) => {
    quietly(load(period));
  });

  const render = (data: Availability): void => {
    const a = data.availability;
    const days = [...data.daily_breakdown].reverse();
    const [first] = days;
    const last = days.at(-1);
    const bars = createUptimeBars(t('detail.bars', { name, count: days.length }));
    bars.update(
      days.map((d) => ({ date: d.date, uptime: d.uptime_percentage, downtime: d.downtime_seconds })),
    );
    body.replaceChildren(
      h(
        'dl',
        { class: 'stats' },
        stat(
          t('detail.uptime'),
          percent(a.uptime_percentage),
          t('detail.of', { duration: duration(a.total_seconds) }),
        ),
        stat(
          t('detail.downtime'),
          duration(a.downtime_seconds),
          t('detail.seconds', { count: a.downtime_seconds }),
        ),
        stat(t('detail.incidents'), integer(a.incident_count), t('detail.downPeriods')),
        stat(t('detail.mtbf'), duration(a.mtbf_seconds), t('detail.mtbfLong')),
        stat(t('detail.mttr'), duration(a.mttr_seconds), t('detail.mttrLong')),
      ),
      bars.el,
      h(
        'div',
        { class: 'bar-legend', 'aria-hidden': 'true' },
        h('span', {}, first ? day(first.date) : ''),
        h('span', {}, last ? day(last.date) : ''),
      ),
    );
  };

  const load = async (period: string): Promise<void> => {
    tabs.panel.setAttribute('aria-busy', 'true');
    const data = await api<Availability>(path, { period }).finally(() =>
      tabs.panel.removeAttribute('aria-busy'),
    );
    if (tabs.selected() !== period) return; // the reader switched again meanwhile
    loaded = data;
    render(data);
  };

  tabs.panel.append(body);
  const el = h('div', { class: 'detail' }, tabs.el, tabs.panel);
  return {
    el,
    refresh: async () => {
      await load(tabs.selected());
      if (loaded === null) body.textContent = t('detail.noData');
    },
  };
};
