// The top of the page: the overall status banner, then what is happening now (active incidents
// with their latest update, maintenance in progress) and what is coming (scheduled maintenance).
import type { Api } from './api.ts';
import { incidentCard, maintenanceCard } from './cards.ts';
import { h } from './dom.ts';
import { clock } from './format.ts';
import { t } from './i18n.ts';
import { overallLabel } from './labels.ts';
import type { IncidentList, MaintenanceList, Overall } from './types.ts';

type Summary = Readonly<{
  el: HTMLElement;
  setOverall: (overall: Overall, at: Date) => void;
  refresh: () => Promise<void>;
}>;

const UPCOMING_SHOWN = 3;

export const createSummary = (api: Api, slug: string): Summary => {
  const label = h('p', { class: 'overall-label' });
  const updated = h('p', { class: 'overall-time' });
  const banner = h(
    'section',
    { class: 'overall', 'aria-label': t('overall.label') },
    h('span', { class: 'overall-icon', 'aria-hidden': 'true' }),
    h('div', { 'aria-live': 'polite' }, label, updated),
  );
  const notices = h('div', { class: 'notices' });
  const el = h('div', { class: 'summary' }, banner, notices);
  let lastOverall: Overall | null = null;

  const section = (title: string, id: string, items: HTMLElement[]): HTMLElement | null =>
    items.length === 0
      ? null
      : h('section', { class: 'card notice', 'aria-labelledby': id }, h('h2', { id }, title), ...items);

  return {
    el,
    setOverall: (overall, at) => {
      const [text, tone] = overallLabel(overall);
      banner.className = `overall tone-${tone}`;
      banner.dataset['overall'] = overall;
      if (lastOverall !== overall) label.textContent = text;
      lastOverall = overall;
      updated.textContent = t('overall.updated', { time: clock(at) });
    },
    refresh: async () => {
      const base = `/api/status-pages/${slug}`;
      const [incidents, running, scheduled] = await Promise.all([
        api<IncidentList>(`${base}/incidents`, { page_size: '100' }),
        api<MaintenanceList>(`${base}/maintenances`, { status: 'in_progress', page_size: '100' }),
        api<MaintenanceList>(`${base}/maintenances`, { status: 'scheduled', page_size: '100' }),
      ]);
      const active = incidents.incidents.filter((incident) => incident.state !== 'resolved');
      // The list is newest first; the soonest windows matter most.
      const upcoming = [...scheduled.maintenances].reverse().slice(0, UPCOMING_SHOWN);
      const maintenance = [
        section(t('summary.running'), 'running-title', running.maintenances.map(maintenanceCard)),
        section(t('summary.upcoming'), 'upcoming-title', upcoming.map(maintenanceCard)),
      ].filter((node): node is HTMLElement => node !== null);
      notices.replaceChildren(
        ...[
          section(
            t('summary.active'),
            'active-title',
            active.map((incident) => incidentCard(incident, false)),
          ),
          maintenance.length > 0 ? h('div', { class: 'notice-pair' }, ...maintenance) : null,
        ].filter((node): node is HTMLElement => node !== null),
      );
    },
  };
};
