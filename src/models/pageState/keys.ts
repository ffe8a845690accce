// Keys of the page-state model: the page document the projector evolves, and the time of the
// page's latest event, kept apart so a batch of checks does not rewrite the whole document.
import { pagePrefix, type PageRef } from '../page.ts';

export const pageStateKeys = (page: PageRef) => {
  const p = pagePrefix(page);
  return { state: `${p}:state`, updated: `${p}:updated` };
};
