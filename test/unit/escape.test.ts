import { describe, expect, it } from 'vitest';
import { escapeHtmlAttr, escapeMarkdownUrl } from '../../projections/render/escape.ts';

describe('escapeHtmlAttr', () => {
  it('escapes every character that can leave a quoted attribute', () => {
    expect(escapeHtmlAttr(`a&b<c>"d'e`)).toBe('a&amp;b&lt;c&gt;&quot;d&#39;e');
    expect(escapeHtmlAttr('https://status.example.com/s/acme')).toBe('https://status.example.com/s/acme');
  });
});

describe('escapeMarkdownUrl', () => {
  it('percent-encodes spaces, parentheses, angle brackets and control characters', () => {
    expect(escapeMarkdownUrl('https://x.com/a b(c)<d>\n')).toBe('https://x.com/a%20b%28c%29%3Cd%3E%0A');
    expect(escapeMarkdownUrl('https://status.example.com/s/acme')).toBe('https://status.example.com/s/acme');
  });
});
