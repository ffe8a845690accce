// The messages a page's render publishes on its partition's `changes` channel inside the fenced
// commit: `<slug>`, `<slug> rendered`, or `<slug> settings` before the others when a page event
// (access, plan, domain, blocked, deleted) was rendered (docs/architecture.md, "The read path").
const RENDERED = ' rendered';
const SETTINGS = ' settings';

export const embedChangedMessage = (slug: string): string => slug;
export const renderedMessage = (slug: string): string => `${slug}${RENDERED}`;
export const settingsChangedMessage = (slug: string): string => `${slug}${SETTINGS}`;

/** `settings`: what the page's answers were made for (who may read them) may have changed. */
type PageChange = Readonly<{ slug: string; embedChanged: boolean; settings: boolean }>;

export const parsePageChange = (message: string): PageChange => {
  if (message.endsWith(RENDERED))
    return { slug: message.slice(0, -RENDERED.length), embedChanged: false, settings: false };
  if (message.endsWith(SETTINGS))
    return { slug: message.slice(0, -SETTINGS.length), embedChanged: false, settings: true };
  return { slug: message, embedChanged: true, settings: false };
};
