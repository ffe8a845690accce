// Incident and maintenance cards, shared by the notices at the top and the lists below.
import { h } from './dom.ts';
import { dateTime, duration, utcTitle } from './format.ts';
import { t, tn } from './i18n.ts';
import { incidentTone, incidentWord, maintenanceTone, maintenanceWord } from './labels.ts';
import type { Incident, IncidentUpdate, Maintenance } from './types.ts';

const time = (iso: string): HTMLElement => h('time', { datetime: iso, title: utcTitle(iso) }, dateTime(iso));

const badge = (text: string, tone: string): HTMLElement => h('span', { class: `badge tone-${tone}` }, text);

const components = (names: readonly string[]): HTMLElement | null =>
  names.length === 0
    ? null
    : h('p', { class: 'affects' }, t('card.affects', { components: names.join(', ') }));

const updateItem = (update: IncidentUpdate): HTMLElement =>
  h(
    'li',
    { class: `update tone-${incidentTone(update.status)}` },
    h('p', {}, h('strong', {}, incidentWord(update.status)), ' — ', update.message),
    time(update.created_at),
  );

/** `full`: the whole timeline, newest first; otherwise only the latest update. */
export const incidentCard = (incident: Incident, full: boolean): HTMLElement => {
  const tone = incidentTone(incident.state);
  const updates = [...incident.updates].reverse();
  const shown = full ? updates : updates.slice(0, 1);
  const span = incident.resolved_at
    ? t('card.resolvedAfter', {
        duration: duration((Date.parse(incident.resolved_at) - Date.parse(incident.started_at)) / 1000),
      })
    : t('card.ongoing');
  return h(
    'article',
    { class: `item incident tone-${tone}`, 'data-incident-id': incident.id },
    h('div', { class: 'item-head' }, h('h3', {}, incident.title), badge(incidentWord(incident.state), tone)),
    h('p', { class: 'meta' }, ...tn('card.started', { time: time(incident.started_at) }), ` · ${span}`),
    components(incident.components),
    shown.length > 0
      ? h('ol', { class: 'timeline', 'aria-label': t('card.updates') }, ...shown.map(updateItem))
      : null,
  );
};

export const maintenanceCard = (maintenance: Maintenance): HTMLElement => {
  const tone = maintenanceTone(maintenance.status);
  return h(
    'article',
    { class: `item maintenance tone-${tone}`, 'data-maintenance-id': maintenance.id },
    h(
      'div',
      { class: 'item-head' },
      h('h3', {}, maintenance.title),
      badge(maintenanceWord(maintenance.status), tone),
    ),
    h('p', { class: 'meta' }, time(maintenance.scheduled_start), ' → ', time(maintenance.scheduled_end)),
    maintenance.description ? h('p', {}, maintenance.description) : null,
    components(maintenance.components),
  );
};
