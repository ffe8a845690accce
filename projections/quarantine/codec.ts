// A quarantined page: what failed, where, why and when, as JSON in the partition's quarantine hash.
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
