// The messages a page's render publishes on its partition's `changes` channel, inside the fenced
// commit (so a subscriber that reads after a message sees the commit whole):
// - `<slug>`: the page's embed or access document changed (live streams refresh; caches drop it);
// - `<slug> rendered`: the page was rendered but its embed and access did not change; any other
//   body of it may have (caches drop the page, live streams have nothing to send).
// A slug never holds a space (PageSlug), so the two cannot be confused.
const RENDERED = ' rendered';

export const embedChangedMessage = (slug: string): string => slug;
export const renderedMessage = (slug: string): string => `${slug}${RENDERED}`;

type PageChange = Readonly<{ slug: string; embedChanged: boolean }>;

export const parsePageChange = (message: string): PageChange =>
  message.endsWith(RENDERED)
    ? { slug: message.slice(0, -RENDERED.length), embedChanged: false }
    : { slug: message, embedChanged: true };
