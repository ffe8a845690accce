// A page's models all live under one prefix inside its partition's hash tag, so one commit or one
// read of a page touches one Redis Cluster slot.
export type PageRef = Readonly<{ tag: string; slug: string }>;

/** The prefix every key of the page starts with; the page models build their keys on it. */
export const pagePrefix = (page: PageRef): string => `${page.tag}:pg:${page.slug}`;

/** Every key of the page matches this pattern (the bench measures a page's memory by it). */
export const pageKeyPattern = (page: PageRef): string => `${pagePrefix(page)}:*`;
