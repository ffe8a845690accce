// The messages a page's render publishes on its partition's `changes` channel inside the fenced
// commit: `<slug>` or `<slug> rendered` (docs/architecture.md, "The read path").
const RENDERED = ' rendered';

export const embedChangedMessage = (slug: string): string => slug;
export const renderedMessage = (slug: string): string => `${slug}${RENDERED}`;

type PageChange = Readonly<{ slug: string; embedChanged: boolean }>;

export const parsePageChange = (message: string): PageChange =>
  message.endsWith(RENDERED)
    ? { slug: message.slice(0, -RENDERED.length), embedChanged: false }
    : { slug: message, embedChanged: true };
