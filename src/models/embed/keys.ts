// Keys of the embed model: the widget's parts, the snippets response and the badge's status.
import { pagePrefix, type PageRef } from '../page.ts';

export const embedKeys = (page: PageRef) => {
  const p = pagePrefix(page);
  return { embed: `${p}:embed`, snippets: `${p}:snippets`, overall: `${p}:overall` };
};
