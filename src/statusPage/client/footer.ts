// The footer: which time zone the times are in, with a switch to UTC, and where the data comes from.
import { h } from './dom.ts';
import { timeZone } from './format.ts';
import { t, tn } from './i18n.ts';

export const drawFooter = (slug: string): HTMLElement => {
  const local = h('button', { type: 'button', class: 'seg' }, t('footer.local', { zone: timeZone.local() }));
  const utc = h('button', { type: 'button', class: 'seg' }, t('footer.utc'));
  const sync = (): void => {
    local.setAttribute('aria-pressed', String(!timeZone.isUtc()));
    utc.setAttribute('aria-pressed', String(timeZone.isUtc()));
  };
  local.addEventListener('click', () => timeZone.set(false));
  utc.addEventListener('click', () => timeZone.set(true));
  timeZone.onChange(sync);
  sync();
  return h(
    'div',
    { class: 'foot-row' },
    h(
      'div',
      { class: 'zone', role: 'group', 'aria-labelledby': 'zone-label' },
      h('span', { id: 'zone-label' }, t('footer.zone')),
      local,
      utc,
    ),
    h(
      'p',
      { class: 'muted' },
      ...tn('footer.source', {
        api: h('a', { href: '/openapi.json' }, t('footer.api')),
        charts: h('a', { href: `/api/status/${slug}/charts` }, t('footer.charts')),
      }),
    ),
  );
};
