import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/shared/escapeHtml.ts';
import type { PageAssets } from '../../src/statusPage/assets.ts';
import { errorDocument } from '../../src/statusPage/errorDocument.ts';
import { pageDocument } from '../../src/statusPage/pageDocument.ts';

const parse = (html: string) => new new Window().DOMParser().parseFromString(html, 'text/html');

const assets: PageAssets = {
  script: { bytes: Buffer.from(''), etag: '"js1"', version: 'js1' },
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
    const html = pageDocument({ slug: 'acme', title: 'Acme', assets });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const doc = parse(html);
    expect(doc.title).toBe('Acme status');
    expect(doc.querySelector('h1')?.textContent).toBe('Acme');
    expect(doc.querySelector('main')?.getAttribute('data-slug')).toBe('acme');
    expect(doc.querySelector('main')?.getAttribute('data-private')).toBe('false');
    expect(doc.querySelectorAll('header, main, footer')).toHaveLength(3);
    expect([...doc.querySelectorAll('script')].map((s) => s.getAttribute('src'))).toEqual([
      '/static/page/v1/page.js?v=js1',
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
    const html = pageDocument({ slug: 'acme', title, assets });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    const doc = parse(html);
    expect(doc.querySelector('h1')?.textContent).toBe(title);
    expect(doc.querySelectorAll('script')).toHaveLength(1);
  });

  it('shows neither title nor data of a private page', () => {
    const doc = parse(pageDocument({ slug: 'vault', title: null, assets }));
    expect(doc.title).toBe('Private status page');
    expect(doc.querySelector('h1')?.textContent).toBe('vault');
    expect(doc.querySelector('main')?.getAttribute('data-private')).toBe('true');
  });
});

describe('errorDocument', () => {
  it('says what happened, styled by the same stylesheet, without a script', () => {
    const doc = parse(errorDocument(404, assets));
    expect(doc.title).toBe('Status page not found');
    expect(doc.querySelector('h1')?.textContent).toBe('Status page not found');
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(doc.querySelector('link[rel=stylesheet]')?.getAttribute('href')).toBe(
      '/static/page/v1/page.css?v=css1',
    );
    expect(parse(errorDocument(503, assets)).title).toBe('Status temporarily unavailable');
  });
});
