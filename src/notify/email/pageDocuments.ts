// The HTML of the subscription pages: sign-up, confirm, manage, and the short answers between
// them. Plain forms that work without a script (the pages have none), on the status page's
// stylesheet; every interpolated value is escaped, every sentence comes from the catalogues (texts.ts), in the head's language.
import { escapeHtml } from '../../shared/escapeHtml.ts';
import { pageAssets } from '../../statusPage/assets.ts';
import { documentStart } from '../../statusPage/pageDocument.ts';
import { withLang, type PageHead } from './pageHead.ts';
import { pageTexts } from './texts.ts';

export type { PageHead } from './pageHead.ts';

const frame = (page: PageHead, heading: string, body: string): string =>
  `${documentStart(escapeHtml(heading), page.locale, pageAssets())}</head>
<body>
<a class="skip" href="#main">${escapeHtml(pageTexts(page.locale).skipToContent)}</a>
<header class="top"><div class="wrap"><p class="top-title">${escapeHtml(page.title)}</p><a class="top-tag" href="${escapeHtml(withLang(`/s/${page.slug}`, page))}">${escapeHtml(pageTexts(page.locale).backToPage)}</a></div></header>
<main id="main" class="wrap subscription">
<h1>${escapeHtml(heading)}</h1>
${body}
</main>
</body>
</html>
`;

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

const checkboxes = (page: PageHead, components: readonly string[], chosen: readonly string[]): string =>
  components.length === 0
    ? ''
    : `<fieldset><legend>${escapeHtml(pageTexts(page.locale).componentsLegend)}</legend>
${components
  .map(
    (name, i) =>
      `<div><input type="checkbox" id="component-${String(i)}" name="components" value="${escapeHtml(name)}"${chosen.includes(name) ? ' checked' : ''}> <label for="component-${String(i)}">${escapeHtml(name)}</label></div>`,
  )
  .join('\n')}
</fieldset>`;

export const subscribeDocument = (
  page: PageHead,
  form: Readonly<{ action: string; components: readonly string[]; error?: string }>,
): string =>
  frame(
    page,
    pageTexts(page.locale).subscribeTitle(page.title),
    `${paragraph(pageTexts(page.locale).subscribeIntro)}
${form.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(form.error)}</p>`}
<form method="post" action="${escapeHtml(form.action)}">
<label for="email">${escapeHtml(pageTexts(page.locale).emailLabel)}</label>
<input id="email" name="email" type="email" required autocomplete="email" maxlength="254">
${checkboxes(page, form.components, [])}
<button class="button primary" type="submit">${escapeHtml(pageTexts(page.locale).subscribeButton)}</button>
</form>`,
  );

export const confirmDocument = (page: PageHead, action: string): string =>
  frame(
    page,
    pageTexts(page.locale).confirmTitle(page.title),
    `${paragraph(pageTexts(page.locale).confirmBody)}
<form method="post" action="${escapeHtml(action)}">
<button class="button primary" type="submit">${escapeHtml(pageTexts(page.locale).confirmButton)}</button>
</form>`,
  );

export const manageDocument = (
  page: PageHead,
  form: Readonly<{
    action: string;
    unsubscribe: string;
    components: readonly string[];
    chosen: readonly string[];
  }>,
): string =>
  frame(
    page,
    pageTexts(page.locale).manageTitle(page.title),
    `${paragraph(pageTexts(page.locale).manageBody)}
${
  form.components.length === 0
    ? ''
    : `<form method="post" action="${escapeHtml(form.action)}">
${checkboxes(page, form.components, form.chosen)}
<button class="button primary" type="submit">${escapeHtml(pageTexts(page.locale).saveButton)}</button>
</form>`
}
<form method="post" action="${escapeHtml(form.unsubscribe)}">
<button class="button" type="submit">${escapeHtml(pageTexts(page.locale).unsubscribeButton)}</button>
</form>`,
  );

/** A short answer: a heading, a sentence, and optionally one link onwards. */
export const noticeDocument = (
  page: PageHead,
  heading: string,
  body: string,
  link?: Readonly<{ href: string; label: string }>,
): string =>
  frame(
    page,
    heading,
    `${paragraph(body)}${link ? `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}`,
  );
