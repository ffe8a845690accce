// What /s/{slug} answers when there is no page to show: a readable HTML page (people open this
// URL in a browser, so no JSON here), styled by the same stylesheet.
import { escapeHtml } from '../shared/escapeHtml.ts';
import { documentStart } from './pageDocument.ts';
import type { PageAssets } from './assets.ts';

const messages = {
  404: {
    title: 'Status page not found',
    text: 'There is no status page at this address. Check the link, or ask whoever shared it.',
  },
  503: {
    title: 'Status temporarily unavailable',
    text: 'The status data is being rebuilt. This page will work again in a few seconds.',
  },
} as const;

export type ErrorStatus = keyof typeof messages;

export const errorDocument = (status: ErrorStatus, assets: PageAssets): string => {
  const { title, text } = messages[status];
  return `${documentStart(escapeHtml(title), assets)}</head>
<body>
<main id="main" class="wrap error-page">
<div class="error-code">${status}</div>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
</main>
</body>
</html>
`;
};
