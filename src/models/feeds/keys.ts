// Key of the feeds model: one hash with the Atom and RSS documents and their Last-Modified.
import { pagePrefix, type PageRef } from '../page.ts';

export const feedsKey = (page: PageRef): string => `${pagePrefix(page)}:feeds`;
