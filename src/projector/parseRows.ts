// Log rows to typed events. A type this version does not know (written by a newer one) is
// skipped; a row of a known type that does not parse becomes a dead letter.
import { eventTypes } from '../events/catalogue.ts';
import { StoredEvent } from '../events/storedEvent.ts';
import type { LogRow } from '../eventLog/readAfter.ts';
import { formatTimestamp } from '../shared/time.ts';

export type DeadLetter = Readonly<{ position: string; error: string }>;

const knownTypes = new Set<string>(eventTypes);

const toEvent = (row: LogRow) =>
  StoredEvent.parse({
    type: row.type,
    page: row.page,
    at: formatTimestamp(row.at),
    position: row.position,
    data: row.data,
  });

export const parseRows = (rows: readonly LogRow[]): { events: StoredEvent[]; deadLetters: DeadLetter[] } => {
  const events: StoredEvent[] = [];
  const deadLetters: DeadLetter[] = [];
  for (const row of rows) {
    if (!knownTypes.has(row.type)) continue;
    try {
      events.push(toEvent(row));
    } catch (error) {
      deadLetters.push({ position: row.position, error: `unreadable event: ${(error as Error).message}` });
    }
  }
  return { events, deadLetters };
};
