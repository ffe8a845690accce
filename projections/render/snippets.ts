// The embed snippets response: ready-to-paste badge and widget markup (decisions.md "Snippet
// markup"), its words in the page's language. Every value is escaped for the context it lands in.
import { translate } from '../locale/catalogues.ts';
import { DEFAULT_LOCALE, type Locale } from '../locale/locales.ts';
import { statusWordKeys } from '../locale/statusWords.ts';
import type { Snippets } from '../../src/contract/responseSchemas.ts';
import type { OverallStatus } from '../types.ts';
import { escapeHtmlAttr as attr, escapeMarkdownUrl as mdUrl } from './escape.ts';

type SnippetsInput = Readonly<{
  slug: string;
  baseUrl: string;
  statusPageUrl: string;
  overall: OverallStatus;
  /** The page's language (absent: the default): the texts, and the widget's data-lang. */
  locale?: Locale | undefined;
}>;

export const renderSnippets = ({
  slug,
  baseUrl,
  statusPageUrl,
  overall,
  locale = DEFAULT_LOCALE,
}: SnippetsInput): Snippets => {
  const { t } = translate(locale);
  const base = baseUrl.replace(/\/+$/, '');
  const badgeUrl = `${base}/badge/${encodeURIComponent(slug)}.svg`;
  // The widget cannot know the page's language: the snippet says it (English needs no attribute).
  const lang = locale === DEFAULT_LOCALE ? '' : ` data-lang="${locale}"`;
  const scriptAttrs = `src="${attr(`${base}/static/embed/v1/status.js`)}" data-slug="${attr(slug)}"${lang} data-theme="auto"`;
  const alt = t('status.label');
  return {
    status_page_url: statusPageUrl,
    badge_markdown: `[![${alt}](${mdUrl(badgeUrl)})](${mdUrl(statusPageUrl)})`,
    badge_html: `<a href="${attr(statusPageUrl)}"><img alt="${attr(alt)}" src="${attr(badgeUrl)}"></a>`,
    widget_script: `<script ${scriptAttrs} async></script>`,
    widget_html:
      `<div class="status-widget"><script ${scriptAttrs}` +
      ` data-show-incidents="true" data-rtm="60" data-upd="7" async></script></div>`,
    minimal_md: `**${t(statusWordKeys[overall])}** · [${t('snippet.view')}](${mdUrl(statusPageUrl)})`,
  };
};
