// Log rows to typed events. A type this version does not know (written by a newer one) is
// skipped; a row of a known type whose data does not parse becomes a dead letter.
import type { z } from 'zod';
import { StoredEvent } from '../events/storedEvent.ts';
import type { LogRow } from '../eventLog/readAfter.ts';
import { formatTimestamp } from '../shared/time.ts';

export type DeadLetter = Readonly<{ position: string; error: string }>;

/**
 * Each type's data schema, taken from the StoredEvent union itself. Only `data` needs checking:
 * the type picks the schema, and page, position and `at` come from typed columns (`at` is a
 * timestamptz formatted here), so running the whole union per row would re-check the bounds of
 * a timestamp this function just wrote (a regex and a parse per event, most of a batch's cost).
 */
const dataSchemas: ReadonlyMap<string, z.ZodTypeAny> = new Map(
  StoredEvent.options.map((option) => [option.shape.type.value, option.shape.data]),
);

const toEvent = (row: LogRow, data: z.ZodTypeAny): StoredEvent =>
  ({
    type: row.type,
    page: row.page,
    at: formatTimestamp(row.at),
    position: row.position,
    data: data.parse(row.data) as unknown,
  }) as StoredEvent;

export const parseRows = (rows: readonly LogRow[]): { events: StoredEvent[]; deadLetters: DeadLetter[] } => {
  const events: StoredEvent[] = [];
  const deadLetters: DeadLetter[] = [];
  for (const row of rows) {
    const data = dataSchemas.get(row.type);
    if (data === undefined) continue;
    try {
      events.push(toEvent(row, data));
    } catch (error) {
      deadLetters.push({ position: row.position, error: `unreadable event: ${(error as Error).message}` });
    }
  }
  return { events, deadLetters };
};
