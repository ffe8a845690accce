// Maintenance windows by status (tabs over the list endpoint's status filter), ten at a time.
import { quietly, type Api } from './api.ts';
import { maintenanceCard } from './cards.ts';
import { h } from './dom.ts';
import { t } from './i18n.ts';
import { createTabs } from './tabs.ts';
import type { Maintenance, MaintenanceList } from './types.ts';

const statuses = () =>
  [
    { value: 'all', text: t('maintenanceList.all') },
    { value: 'scheduled', text: t('maintenance.scheduled') },
    { value: 'in_progress', text: t('maintenance.in_progress') },
    { value: 'completed', text: t('maintenance.completed') },
  ] as const;
const PAGE_SIZE = 10;

type MaintenanceSection = Readonly<{ el: HTMLElement; refresh: () => Promise<void> }>;

export const createMaintenanceList = (api: Api, slug: string): MaintenanceSection => {
  let shown: Maintenance[] = [];
  let pages = 1;
  const items = h('div', { class: 'items' });
  const more = h('button', { type: 'button', class: 'button', hidden: true }, t('maintenanceList.more'));

  const load = async (status: string, upTo: number, keep: boolean): Promise<void> => {
    const fetched: Maintenance[] = [];
    let last: MaintenanceList | null = null;
    // A refresh reloads every page already shown, so nothing jumps while reading.
    for (let page = 1; page <= upTo; page += 1) {
      last = await api<MaintenanceList>(`/api/status-pages/${slug}/maintenances`, {
        status,
        page: String(page),
        page_size: String(PAGE_SIZE),
      });
      fetched.push(...last.maintenances);
    }
    if (tabs.selected() !== status) return;
    shown = fetched;
    pages = keep ? upTo : 1;
    items.replaceChildren(
      ...(shown.length === 0
        ? [h('p', { class: 'muted empty' }, t('maintenanceList.empty'))]
        : shown.map(maintenanceCard)),
    );
    more.hidden = last === null || last.page >= last.total_pages;
  };

  const tabs = createTabs(t('maintenanceList.tabs'), statuses(), (status) => {
    quietly(load(status, 1, false));
  });
  more.addEventListener('click', () => {
    quietly(load(tabs.selected(), pages + 1, true));
  });
  tabs.panel.append(items, more);
  const el = h(
    'section',
    { class: 'card', 'aria-labelledby': 'maintenance-title' },
    h(
      'div',
      { class: 'card-head' },
      h('h2', { id: 'maintenance-title' }, t('maintenanceList.title')),
      tabs.el,
    ),
    tabs.panel,
  );
  return { el, refresh: () => load(tabs.selected(), pages, true) };
};
