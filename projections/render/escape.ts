// Escaping for the snippet markup: a value placed in a page must not break out of its context.

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes a value for a quoted HTML attribute (and for text content). */
export const escapeHtmlAttr = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => htmlEntities[c] ?? c);

const percentEncode = (c: string): string =>
  `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * Makes a URL safe as a Markdown link destination: whitespace and control characters, parentheses
 * and angle brackets would end or break the `(…)`, so they are percent-encoded.
 */
export const escapeMarkdownUrl = (url: string): string =>
  url.replace(/[\u0000-\u0020\u007f()<>]/g, percentEncode); // eslint-disable-line no-control-regex
