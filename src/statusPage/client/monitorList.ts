// The monitors section: one row per monitor in the API's display order, kept across refreshes
// (so focus, open details and tooltips survive), minute data loaded once the list is in view.
import { quietly, type Api } from './api.ts';
import { h } from './dom.ts';
import { t } from './i18n.ts';
import { createMonitorRow, type MonitorRow } from './monitorRow.ts';
import type { ChartMonitor, MinuteData } from './types.ts';

type MonitorList = Readonly<{
  el: HTMLElement;
  update: (monitors: readonly ChartMonitor[]) => void;
  refreshUptime: () => Promise<void>;
  refreshMinutes: () => Promise<void>;
  render: () => void;
}>;

export const createMonitorList = (api: Api, slug: string): MonitorList => {
  const rows = new Map<number, MonitorRow>();
  const list = h('ul', { class: 'monitors', role: 'list' });
  const empty = h('p', { class: 'muted', hidden: true }, t('monitors.empty'));
  const el = h(
    'section',
    { class: 'card', 'aria-labelledby': 'monitors-title' },
    h(
      'div',
      { class: 'card-head' },
      h('h2', { id: 'monitors-title' }, t('monitors.title')),
      h('span', { class: 'muted' }, t('monitors.subtitle')),
    ),
    list,
    empty,
  );
  let inView = false;

  const refreshMinutes = async (): Promise<void> => {
    if (!inView || rows.size === 0) return;
    const data = await api<MinuteData>(`/api/status-page/${slug}/minute-data`);
    for (const entry of data.monitors) rows.get(entry.id)?.setMinutes(entry.minute_data);
  };

  // The minute charts are the detailed part: fetch them only once someone scrolls to them.
  new IntersectionObserver((entries) => {
    const visible = entries.some((entry) => entry.isIntersecting);
    if (visible && !inView) {
      inView = true;
      quietly(refreshMinutes());
    }
    inView = visible;
  }).observe(list);

  return {
    el,
    update: (monitors) => {
      const fresh: MonitorRow[] = [];
      const inOrder: MonitorRow[] = [];
      for (const monitor of monitors) {
        let row = rows.get(monitor.id);
        if (!row) {
          row = createMonitorRow(api, slug, monitor);
          rows.set(monitor.id, row);
          fresh.push(row);
        }
        row.update(monitor);
        inOrder.push(row);
      }
      const ids = new Set(monitors.map((m) => m.id));
      for (const [id, row] of rows) {
        if (ids.has(id)) continue;
        row.el.remove();
        rows.delete(id);
      }
      // Append in display order; moving an existing node keeps its state.
      inOrder.forEach((row, index) => {
        if (list.children[index] !== row.el) list.insertBefore(row.el, list.children[index] ?? null);
      });
      empty.hidden = monitors.length > 0;
      for (const row of fresh) quietly(row.refreshUptime());
      if (fresh.length > 0) quietly(refreshMinutes());
    },
    refreshUptime: async () => {
      await Promise.all([...rows.values()].map((row) => row.refreshUptime()));
    },
    refreshMinutes,
    render: () => {
      for (const row of rows.values()) row.render();
    },
  };
};
