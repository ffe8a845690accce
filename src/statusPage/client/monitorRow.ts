// One monitor: name and state, 90 days of daily uptime (availability, period 90d), today's
// response time, the last hour, and a disclosure with the availability details.
import { quietly, type Api } from './api.ts';
import { h } from './dom.ts';
import { percent } from './format.ts';
import { t } from './i18n.ts';
import { monitorLabel } from './labels.ts';
import { createMonitorDetail, type MonitorDetail } from './monitorDetail.ts';
import { lastHourChart, todayChart } from './monitorCharts.ts';
import type { Availability, ChartMonitor, MinutePoint } from './types.ts';
import { createUptimeBars } from './uptimeBars.ts';

export type MonitorRow = Readonly<{
  el: HTMLElement;
  id: number;
  update: (monitor: ChartMonitor) => void;
  setMinutes: (minutes: readonly MinutePoint[]) => void;
  refreshUptime: () => Promise<void>;
  render: () => void;
}>;

export const createMonitorRow = (api: Api, slug: string, first: ChartMonitor): MonitorRow => {
  const path = `/api/status-pages/${slug}/monitors/${String(first.id)}/availability`;
  let monitor = first;
  let minutes: readonly MinutePoint[] | null = null;
  let detail: MonitorDetail | null = null;

  const name = h('h3', { class: 'monitor-name' });
  const state = h('span', { class: 'state' });
  const bars = createUptimeBars(t('monitor.bars', { name: first.name }));
  const uptime = h('span', { class: 'uptime-figure' });
  const charts = h('div', { class: 'monitor-charts' });
  const detailBox = h('div', { class: 'detail-box', id: `detail-${String(first.id)}`, hidden: true });
  const toggle = h(
    'button',
    { type: 'button', class: 'link-button', 'aria-expanded': 'false', 'aria-controls': detailBox.id },
    t('monitor.details'),
  );
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    detailBox.hidden = !open;
    if (open && detail === null) {
      detail = createMonitorDetail(api, path, monitor.name);
      detailBox.append(detail.el);
      quietly(detail.refresh());
    }
  });

  const el = h(
    'li',
    { class: 'monitor', 'data-monitor-id': first.id },
    h('div', { class: 'monitor-head' }, name, state),
    bars.el,
    h(
      'div',
      { class: 'bar-legend', 'aria-hidden': 'true' },
      h('span', {}, t('monitor.daysAgo')),
      uptime,
      h('span', {}, t('monitor.today')),
    ),
    charts,
    h('div', { class: 'monitor-foot' }, toggle),
    detailBox,
  );

  const render = (): void => {
    name.textContent = monitor.name;
    const [label, tone] = monitorLabel(monitor.state);
    state.className = `state tone-${tone}`;
    state.replaceChildren(h('span', { class: 'dot', 'aria-hidden': 'true' }), label);
    charts.replaceChildren(todayChart(monitor), lastHourChart(monitor.name, minutes));
  };

  return {
    el,
    id: first.id,
    update: (next) => {
      monitor = next;
      render();
    },
    setMinutes: (next) => {
      minutes = next;
      render();
    },
    render,
    refreshUptime: async () => {
      const data = await api<Availability>(path, { period: '90d' });
      // 90d covers 91 UTC days (the first only partly): the bars show the last 90.
      const days = [...data.daily_breakdown].reverse().slice(-90);
      bars.update(
        days.map((d) => ({ date: d.date, uptime: d.uptime_percentage, downtime: d.downtime_seconds })),
      );
      uptime.textContent = t('monitor.uptime', { percent: percent(data.availability.uptime_percentage) });
      if (detail !== null && !detailBox.hidden) await detail.refresh();
    },
  };
};
