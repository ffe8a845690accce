import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/shared/escapeHtml.ts';
import { statusPageHtml } from '../../src/embed/statusPageHtml.ts';

const parse = (html: string) => {
  const window = new Window();
  return new window.DOMParser().parseFromString(html, 'text/html');
};

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('statusPageHtml', () => {
  const base = {
    slug: 'acme',
    title: 'Acme status',
    baseUrl: 'https://status.example.test',
    month: '2025-03',
  };

  it('is an HTML5 page with the title', () => {
    const html = statusPageHtml(base);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    const doc = parse(html);
    expect(doc.title).toBe('Acme status');
    expect(doc.querySelector('h1')?.textContent).toBe('Acme status');
  });

  it('escapes a hostile title as text', () => {
    const title = '</title><script>alert(1)</script><img src=x onerror=alert(2)>';
    const html = statusPageHtml({ ...base, title });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    const doc = parse(html);
    expect(doc.querySelector('h1')?.textContent).toBe(title);
    expect(doc.querySelectorAll('script')).toHaveLength(1);
    expect(doc.querySelectorAll('img')).toHaveLength(1);
  });

  it('embeds the widget script with its attributes and the badge', () => {
    const doc = parse(statusPageHtml({ ...base, baseUrl: 'https://status.example.test/' }));
    const script = doc.querySelector('script');
    expect(script?.getAttribute('src')).toBe('https://status.example.test/static/embed/v1/status.js');
    expect(script?.getAttribute('data-slug')).toBe('acme');
    expect(script?.getAttribute('data-theme')).toBe('auto');
    expect(script?.getAttribute('data-show-incidents')).toBe('true');
    expect(script?.getAttribute('data-rtm')).toBe('60');
    expect(script?.getAttribute('data-upd')).toBe('30');
    expect(script?.hasAttribute('async')).toBe(true);
    expect(doc.querySelector('img')?.getAttribute('src')).toBe('https://status.example.test/badge/acme.svg');
  });

  it('escapes a hostile slug in attributes and encodes it in URLs', () => {
    const doc = parse(statusPageHtml({ ...base, slug: 'a"b<c' }));
    expect(doc.querySelector('script')?.getAttribute('data-slug')).toBe('a"b<c');
    expect(doc.querySelector('img')?.getAttribute('src')).toBe(
      'https://status.example.test/badge/a%22b%3Cc.svg',
    );
  });

  it('links the JSON endpoints of the slug', () => {
    const doc = parse(statusPageHtml(base));
    const hrefs = [...doc.querySelectorAll('ul a')].map((a) => a.getAttribute('href'));
    const api = 'https://status.example.test/api';
    expect(hrefs).toEqual([
      `${api}/status-pages/acme/incidents`,
      `${api}/status-pages/acme/incidents/filter?month=2025-03`,
      `${api}/status-pages/acme/incidents/daily-counts?month=2025-03`,
      `${api}/status-pages/acme/maintenances`,
      `${api}/status-pages/acme/maintenances/filter?month=2025-03`,
      `${api}/status-pages/acme/maintenances/daily-counts?month=2025-03`,
      `${api}/status/acme/charts`,
      `${api}/status-page/acme/minute-data`,
      `${api}/embed/status?slug=acme&inc=1&rtm=60&upd=30`,
      `${api}/embed/markdown?slug=acme`,
    ]);
    expect(doc.body.textContent).toContain('/api/status-pages/acme/monitors/{monitorID}/availability');
  });
});
