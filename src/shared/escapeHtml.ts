const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values (single or double quotes). */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => entities[c] ?? c);
