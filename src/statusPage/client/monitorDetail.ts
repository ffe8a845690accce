// A monitor's availability over a chosen period (24h … 1y) from the availability endpoint:
// the figures in human units and the daily breakdown as bars.
import { quietly, type Api } from './api.ts';
import { h } from './dom.ts';
import { day, duration, integer, percent } from './format.ts';
import { createTabs } from './tabs.ts';
import type { Availability } from './types.ts';
import { createUptimeBars } from './uptimeBars.ts';

const PERIODS = [
  { value: '24h', text: '24 hours' },
  { value: '7d', text: '7 days' },
  { value: '30d', text: '30 days' },
  { value: '90d', text: '90 days' },
  { value: '1y', text: '1 year' },
] as const;

export type MonitorDetail = Readonly<{ el: HTMLElement; refresh: () => Promise<void> }>;

const stat = (name: string, value: string, note: string): HTMLElement =>
  h('div', { class: 'stat' }, h('dt', {}, name), h('dd', {}, value, h('small', {}, note)));

export const createMonitorDetail = (api: Api, path: string, name: string): MonitorDetail => {
  const body = h('div', { class: 'detail-body' });
  let loaded: Availability | null = null;
  const tabs = createTabs(`Availability period of ${name}`, PERIODS, (period) => {
    quietly(load(period));
  });

  const render = (data: Availability): void => {
    const a = data.availability;
    const days = [...data.daily_breakdown].reverse();
    const [first] = days;
    const last = days.at(-1);
    const bars = createUptimeBars(`${name}, daily uptime, ${String(days.length)} days`);
    bars.update(
      days.map((d) => ({ date: d.date, uptime: d.uptime_percentage, downtime: d.downtime_seconds })),
    );
    body.replaceChildren(
      h(
        'dl',
        { class: 'stats' },
        stat('Uptime', percent(a.uptime_percentage), `of ${duration(a.total_seconds)}`),
        stat('Downtime', duration(a.downtime_seconds), `${integer(a.downtime_seconds)} seconds`),
        stat('Incidents', integer(a.incident_count), 'down periods'),
        stat('MTBF', duration(a.mtbf_seconds), 'mean time between failures'),
        stat('MTTR', duration(a.mttr_seconds), 'mean time to recovery'),
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
      if (loaded === null) body.textContent = 'No availability data.';
    },
  };
};
