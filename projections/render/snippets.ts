// The embed snippets response: ready-to-paste badge and widget markup (decisions.md "Snippet
// markup"). Every value is escaped for the context it lands in.
import { overallLabel } from '../figures/overallStatus.ts';
import type { Snippets } from '../../src/contract/responseSchemas.ts';
import type { OverallStatus } from '../types.ts';
import { escapeHtmlAttr as attr, escapeMarkdownUrl as mdUrl } from './escape.ts';

type SnippetsInput = Readonly<{
  slug: string;
  baseUrl: string;
  statusPageUrl: string;
  overall: OverallStatus;
}>;

export const renderSnippets = ({ slug, baseUrl, statusPageUrl, overall }: SnippetsInput): Snippets => {
  const base = baseUrl.replace(/\/+$/, '');
  const badgeUrl = `${base}/badge/${encodeURIComponent(slug)}.svg`;
  const scriptAttrs = `src="${attr(`${base}/static/embed/v1/status.js`)}" data-slug="${attr(slug)}" data-theme="auto"`;
  return {
    status_page_url: statusPageUrl,
    badge_markdown: `[![Status](${mdUrl(badgeUrl)})](${mdUrl(statusPageUrl)})`,
    badge_html: `<a href="${attr(statusPageUrl)}"><img alt="Status" src="${attr(badgeUrl)}"></a>`,
    widget_script: `<script ${scriptAttrs} async></script>`,
    widget_html:
      `<div class="status-widget"><script ${scriptAttrs}` +
      ` data-show-incidents="true" data-rtm="60" data-upd="7" async></script></div>`,
    minimal_md: `**${overallLabel(overall)}** · [View status page](${mdUrl(statusPageUrl)})`,
  };
};
