// Escaping for XML 1.0 text and attribute values. Characters XML cannot carry at all (most C0
// controls, lone surrogates, U+FFFE/U+FFFF) are dropped: an event's text may hold anything, and
// one such character would make the whole feed unreadable.
const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

// eslint-disable-next-line no-control-regex
const notXml = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export const xmlText = (value: string): string =>
  value.replace(notXml, '').replace(/[&<>"']/g, (c) => entities[c] ?? c);
