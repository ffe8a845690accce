// Key of the access model: the little every endpoint needs before it may answer.
import { pagePrefix, type PageRef } from '../page.ts';

export const accessKey = (page: PageRef): string => `${pagePrefix(page)}:access`;
