// What /s/{slug} answers when there is no page to show: a readable HTML page (people open this
// URL in a browser, so no JSON here), styled by the same stylesheet, in the language asked for.
import type { Locale } from '../../projections/locale/locales.ts';
import { translate } from '../../projections/locale/catalogues.ts';
import type { MessageKey } from '../../projections/locale/messages/en.ts';
import { escapeHtml } from '../shared/escapeHtml.ts';
import { documentStart, languageLinks } from './pageDocument.ts';
import type { PageAssets } from './assets.ts';

const messages = {
  400: { title: 'error.language.title', text: 'error.language.text' },
  404: { title: 'error.notFound.title', text: 'error.notFound.text' },
  503: { title: 'error.unavailable.title', text: 'error.unavailable.text' },
} as const satisfies Record<number, Readonly<{ title: MessageKey; text: MessageKey }>>;

export type ErrorStatus = keyof typeof messages;

/**
 * 400 is an unsupported `lang`: it lists the languages there are, as links to `?lang=` or, where
 * the URL holds more than the language (a subscription link's token), to `hrefOf`'s.
 */
export const errorDocument = (
  status: ErrorStatus,
  locale: Locale,
  assets: PageAssets,
  hrefOf?: (other: Locale) => string,
): string => {
  const { t } = translate(locale);
  const title = escapeHtml(t(messages[status].title));
  return `${documentStart(title, locale, assets)}</head>
<body>
<main id="main" class="wrap error-page">
<div class="error-code">${status}</div>
<h1>${title}</h1>
<p>${escapeHtml(t(messages[status].text))}</p>
${status === 400 ? languageLinks(locale, hrefOf) : ''}
</main>
</body>
</html>
`;
};
