// The reader's browser languages may only suggest another language, never pick one: the answer is
// the same for every reader of a URL (the language is in the URL, so edges keep one copy each).
// The suggestion is in the suggested language itself, from the document's language links.
import { preferredLocale } from '../../../projections/locale/locales.ts';
import { h } from './dom.ts';
import { pageLocale } from './i18n.ts';

export const suggestLanguage = (): void => {
  // A language chosen in the address is the reader's choice: nothing to suggest.
  if (new URLSearchParams(window.location.search).has('lang')) return;
  const wanted = preferredLocale(navigator.languages);
  if (wanted === null || wanted === pageLocale()) return;
  const link = document.querySelector<HTMLAnchorElement>(`.langs a[hreflang="${wanted}"]`);
  const text = link?.dataset['suggest'];
  if (!link || !text) return;
  document
    .getElementById('main')
    ?.before(
      h(
        'p',
        { class: 'wrap lang-suggest', lang: wanted },
        h('a', { href: link.getAttribute('href') ?? '', hreflang: wanted }, text),
      ),
    );
};
