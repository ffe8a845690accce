// The form a private page shows until the reader gives its token. The token goes to
// sessionStorage only (token.ts) and travels as `Authorization: Bearer`, as any API client may send it.
import { h } from './dom.ts';
import { t } from './i18n.ts';

export const drawAuthForm = (rejected: boolean, onToken: (token: string) => void): HTMLElement => {
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    required: true,
    'aria-describedby': 'token-help',
    'aria-invalid': rejected ? 'true' : null,
  });
  const form = h(
    'form',
    { class: 'auth-form' },
    h('label', { for: 'token' }, t('auth.label')),
    input,
    h('p', { id: 'token-help', class: 'muted' }, t('auth.help')),
    rejected ? h('p', { class: 'error', role: 'alert' }, t('auth.rejected')) : null,
    h('button', { type: 'submit', class: 'button primary' }, t('auth.submit')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (token) onToken(token);
  });
  queueMicrotask(() => input.focus());
  return h(
    'section',
    { class: 'card auth', 'aria-labelledby': 'auth-title' },
    h('h2', { id: 'auth-title' }, t('auth.title')),
    h('p', {}, t('auth.intro')),
    form,
  );
};
