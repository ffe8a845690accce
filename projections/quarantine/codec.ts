// A quarantined page: what failed (`event`: an event of the page could not be applied and was
// skipped; `render`: rendering the page threw), where (the event's log position, or the
// partition's checkpoint `<tx>:<position>` for a render), why and when. JSON in the partition's
// quarantine hash.
import { z } from 'zod';

export const Quarantine = z.object({
  kind: z.enum(['event', 'render']),
  position: z.string(),
  error: z.string(),
  since: z.string(),
});
export type Quarantine = z.infer<typeof Quarantine>;

export const encodeQuarantine = (q: Quarantine): string => JSON.stringify(q);

/** A value that does not parse still says the page is quarantined. */
export const decodeQuarantine = (text: string): Quarantine => {
  const parsed = Quarantine.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : { kind: 'event', position: '', error: text, since: '' };
};
