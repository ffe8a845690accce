// Key of the Statuspage model: one hash, document name (`summary`, `incidents/unresolved`, …) → bytes.
import { pagePrefix, type PageRef } from '../page.ts';

export const statuspageKey = (page: PageRef): string => `${pagePrefix(page)}:sp`;
