import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/shared/escapeHtml.ts';
import type { PageAssets } from '../../src/statusPage/assets.ts';
import { errorDocument } from '../../src/statusPage/errorDocument.ts';
import { pageDocument } from '../../src/statusPage/pageDocument.ts';
import { LANGUAGE_NAMES, LOCALES } from '../../projections/locale/locales.ts';

const parse = (html: string) => new new Window().DOMParser().parseFromString(html, 'text/html');

const assets: PageAssets = {
  scripts: Object.fromEntries(
    LOCALES.map((l) => [l, { bytes: Buffer.from(''), etag: `"js-${l}"`, version: `js-${l}` }]),
  ) as PageAssets['scripts'],
  style: { bytes: Buffer.from(''), etag: '"css1"', version: 'css1' },
};

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('pageDocument', () => {
  it('is an HTML5 document with the title, landmarks, one script, one stylesheet and the feeds', () => {
    const html = pageDocument({ slug: 'acme', title: 'Acme', locale: 'en', assets });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const doc = parse(html);
    expect(doc.title).toBe('Acme status');
    expect(doc.querySelector('h1')?.textContent).toBe('Acme');
    expect(doc.querySelector('main')?.getAttribute('data-slug')).toBe('acme');
    expect(doc.querySelector('main')?.getAttribute('data-private')).toBe('false');
    expect(doc.querySelectorAll('header, main, footer')).toHaveLength(3);
    expect([...doc.querySelectorAll('script')].map((s) => s.getAttribute('src'))).toEqual([
      '/static/page/v1/page.en.js?v=js-en',
    ]);
    expect([...doc.querySelectorAll('link[rel=stylesheet]')].map((l) => l.getAttribute('href'))).toEqual([
      '/static/page/v1/page.css?v=css1',
    ]);
    const feeds = [...doc.querySelectorAll('link[rel=alternate]')].map((l) => [
      l.getAttribute('type'),
      l.getAttribute('href'),
    ]);
    expect(feeds).toEqual([
      ['application/atom+xml', '/s/acme/feed.atom'],
      ['application/rss+xml', '/s/acme/feed.rss'],
    ]);
  });

  it('escapes a hostile title as text', () => {
    const title = '</title><script>alert(1)</script><img src=x onerror=alert(2)>';
    const html = pageDocument({ slug: 'acme', title, locale: 'en', assets });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    const doc = parse(html);
    expect(doc.querySelector('h1')?.textContent).toBe(title);
    expect(doc.querySelectorAll('script')).toHaveLength(1);
  });

  it('shows neither title nor data of a private page', () => {
    const doc = parse(pageDocument({ slug: 'vault', title: null, locale: 'en', assets }));
    expect(doc.title).toBe('Private status page');
    expect(doc.querySelector('h1')?.textContent).toBe('vault');
    expect(doc.querySelector('main')?.getAttribute('data-private')).toBe('true');
  });

  it("speaks its language: lang, texts, that language's script, and links to every language", () => {
    const doc = parse(pageDocument({ slug: 'acme', title: 'Acme', locale: 'de', assets }));
    expect(doc.documentElement.getAttribute('lang')).toBe('de');
    expect(doc.title).toBe('Status von Acme');
    expect(doc.querySelector('.skip')?.textContent).toBe('Zum Inhalt springen');
    expect([...doc.querySelectorAll('script')].map((s) => s.getAttribute('src'))).toEqual([
      '/static/page/v1/page.de.js?v=js-de',
    ]);
    const links = [...doc.querySelectorAll('nav.langs a')].map((a) => ({
      href: a.getAttribute('href'),
      hreflang: a.getAttribute('hreflang'),
      lang: a.getAttribute('lang'),
      text: a.textContent,
      current: a.getAttribute('aria-current'),
    }));
    expect(links).toEqual(
      LOCALES.map((l) => ({
        href: `?lang=${l}`,
        hreflang: l,
        lang: l,
        text: LANGUAGE_NAMES[l],
        current: l === 'de' ? 'true' : null,
      })),
    );
    expect(doc.querySelector('nav.langs')?.getAttribute('aria-label')).toBe('Sprache');
    expect(doc.querySelector('a[hreflang="fr"]')?.getAttribute('data-suggest')).toBe(
      'Voir cette page en français',
    );
  });
});

describe('errorDocument', () => {
  it('says what happened, styled by the same stylesheet, without a script', () => {
    const doc = parse(errorDocument(404, 'en', assets));
    expect(doc.title).toBe('Status page not found');
    expect(doc.querySelector('h1')?.textContent).toBe('Status page not found');
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(doc.querySelector('link[rel=stylesheet]')?.getAttribute('href')).toBe(
      '/static/page/v1/page.css?v=css1',
    );
    expect(parse(errorDocument(503, 'en', assets)).title).toBe('Status temporarily unavailable');
    expect(parse(errorDocument(404, 'ja', assets)).title).toBe('ステータスページが見つかりません');
  });

  it('lists the languages there are when one asked for is not', () => {
    const doc = parse(errorDocument(400, 'fr', assets));
    expect(doc.title).toBe('Langue non disponible');
    expect([...doc.querySelectorAll('nav.langs a')].map((a) => a.getAttribute('href'))).toEqual(
      LOCALES.map((l) => `?lang=${l}`),
    );
  });
});
