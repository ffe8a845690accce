// Log rows to typed events. A type this version does not know (written by a newer one) is
// skipped; a row of a known type whose data does not parse becomes a dead letter.
import type { z } from 'zod';
import { StoredEvent, type ProjectedEvent } from '../events/storedEvent.ts';
import type { LogRow } from '../eventLog/readAfter.ts';
import type { DeadLetter } from '../../projections/types.ts';

/**
 * Each type's data schema, taken from the StoredEvent union itself. Only `data` needs checking:
 * the type picks the schema, and page, position and `at` (epoch ms) come from typed columns.
 */
const dataSchemas: ReadonlyMap<string, z.ZodTypeAny> = new Map(
  StoredEvent.options.map((option) => [option.shape.type.value, option.shape.data]),
);

const toEvent = (row: LogRow, data: z.ZodTypeAny): ProjectedEvent =>
  ({
    type: row.type,
    page: row.page,
    at: row.at,
    position: row.position,
    data: data.parse(row.data) as unknown,
  }) as ProjectedEvent;

export const parseRows = (
  rows: readonly LogRow[],
): { events: ProjectedEvent[]; deadLetters: DeadLetter[] } => {
  const events: ProjectedEvent[] = [];
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
