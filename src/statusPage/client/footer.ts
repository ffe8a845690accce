// The footer: which time zone the times are in, with a switch to UTC, and where the data comes from.
import { h } from './dom.ts';
import { timeZone } from './format.ts';

export const drawFooter = (slug: string): HTMLElement => {
  const local = h('button', { type: 'button', class: 'seg' }, `Local (${timeZone.local()})`);
  const utc = h('button', { type: 'button', class: 'seg' }, 'UTC');
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
      h('span', { id: 'zone-label' }, 'Show times in'),
      local,
      utc,
    ),
    h(
      'p',
      { class: 'muted' },
      'Data from the public ',
      h('a', { href: '/openapi.json' }, 'status API'),
      ' · ',
      h('a', { href: `/api/status/${slug}/charts` }, 'charts JSON'),
    ),
  );
};
