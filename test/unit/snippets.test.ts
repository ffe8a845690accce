import { describe, expect, it } from 'vitest';
import { renderSnippets } from '../../projections/render/snippets.ts';

describe('renderSnippets', () => {
  it('renders the markup of decisions.md', () => {
    expect(
      renderSnippets({
        slug: 'acme',
        baseUrl: 'https://status.example.com/',
        statusPageUrl: 'https://status.acme.com',
        overall: 'degraded_performance',
      }),
    ).toEqual({
      status_page_url: 'https://status.acme.com',
      badge_markdown: '[![Status](https://status.example.com/badge/acme.svg)](https://status.acme.com)',
      badge_html:
        '<a href="https://status.acme.com"><img alt="Status" src="https://status.example.com/badge/acme.svg"></a>',
      widget_script:
        '<script src="https://status.example.com/static/embed/v1/status.js" data-slug="acme" data-theme="auto" async></script>',
      widget_html:
        '<div class="status-widget"><script src="https://status.example.com/static/embed/v1/status.js" data-slug="acme"' +
        ' data-theme="auto" data-show-incidents="true" data-rtm="60" data-upd="7" async></script></div>',
      minimal_md: '**Degraded Performance** · [View status page](https://status.acme.com)',
    });
  });

  it("writes the page's language: its words, and data-lang for the widget", () => {
    const snippets = renderSnippets({
      slug: 'acme',
      baseUrl: 'https://status.example.com',
      statusPageUrl: 'https://status.acme.com',
      overall: 'partial_outage',
      locale: 'fr',
    });
    expect(snippets.badge_markdown).toBe(
      '[![État](https://status.example.com/badge/acme.svg)](https://status.acme.com)',
    );
    expect(snippets.badge_html).toContain('<img alt="État" ');
    expect(snippets.widget_script).toBe(
      '<script src="https://status.example.com/static/embed/v1/status.js" data-slug="acme" data-lang="fr" data-theme="auto" async></script>',
    );
    expect(snippets.minimal_md).toBe('**Panne partielle** · [Voir la page d’état](https://status.acme.com)');
  });

  it('escapes hostile values for each context', () => {
    const snippets = renderSnippets({
      slug: 'a"><script>x</script>',
      baseUrl: 'https://b.example/"x',
      statusPageUrl: 'https://evil.example/") onload="x" (<b>',
      overall: 'operational',
    });
    expect(snippets.status_page_url).toBe('https://evil.example/") onload="x" (<b>');
    expect(snippets.badge_markdown).toBe(
      '[![Status](https://b.example/"x/badge/a%22%3E%3Cscript%3Ex%3C%2Fscript%3E.svg)]' +
        '(https://evil.example/"%29%20onload="x"%20%28%3Cb%3E)',
    );
    expect(snippets.badge_html).toBe(
      '<a href="https://evil.example/&quot;) onload=&quot;x&quot; (&lt;b&gt;"><img alt="Status"' +
        ' src="https://b.example/&quot;x/badge/a%22%3E%3Cscript%3Ex%3C%2Fscript%3E.svg"></a>',
    );
    expect(snippets.widget_script).toBe(
      '<script src="https://b.example/&quot;x/static/embed/v1/status.js"' +
        ' data-slug="a&quot;&gt;&lt;script&gt;x&lt;/script&gt;" data-theme="auto" async></script>',
    );
    expect(snippets.widget_html).not.toMatch(/<script>/);
    expect(snippets.minimal_md).toBe(
      '**Operational** · [View status page](https://evil.example/"%29%20onload="x"%20%28%3Cb%3E)',
    );
  });
});
