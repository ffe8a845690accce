import { describe, expect, it } from 'vitest';
import { pageUrl } from '../../projections/render/pageUrl.ts';

const urls = { baseUrl: 'https://status.example.com', pageUrlTemplate: '{base_url}/s/{slug}' };

describe('pageUrl', () => {
  it('uses the custom domain when the page has one', () => {
    expect(pageUrl({ slug: 'acme', customDomain: 'status.acme.com' }, urls)).toBe('https://status.acme.com');
  });

  it('fills the template otherwise', () => {
    expect(pageUrl({ slug: 'acme', customDomain: null }, urls)).toBe('https://status.example.com/s/acme');
    const custom = {
      baseUrl: 'https://x.example/$&/',
      pageUrlTemplate: 'https://{slug}.pages.example/?from={base_url}',
    };
    expect(pageUrl({ slug: 'acme', customDomain: null }, custom)).toBe(
      'https://acme.pages.example/?from=https://x.example/$&',
    );
  });
});
