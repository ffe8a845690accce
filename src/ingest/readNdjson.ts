// NDJSON, shared by both ingest doors: the HTTP body (already in memory, at most 10 MB) and the
// CLI's input, which is streamed line by line so a file of any size never sits in memory.
import { createInterface } from 'node:readline';
import { parseEvent, type EventError, type ParsedEvent } from '../events/parseEvent.ts';

export const isBlank = (line: string): boolean => line.trim() === '';

/** One non-blank line as an event; a line that is not JSON is an invalid event of its own. */
export const parseNdjsonLine = (line: string, index: number, now: Date): ParsedEvent | EventError => {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { index, message: 'invalid JSON' };
  }
  return parseEvent(raw, index, now);
};

type ReadNdjsonOptions = Readonly<{
  now: Date;
  chunkSize: number;
  /** Called after each event read, with the count so far (for progress). */
  onEvent?: (count: number) => void;
  /** Lines 1…skipLines are passed over (an import resumed after them). */
  skipLines?: number;
}>;

/**
 * Streams parsed events in chunks of `chunkSize`. An event's index is its line number − 1, so
 * errors map back to lines although blank lines are skipped. Rejects if `input` fails
 * (readline passes the input's errors on to the iteration).
 */
export async function* readNdjson(
  input: NodeJS.ReadableStream,
  options: ReadNdjsonOptions,
): AsyncGenerator<(ParsedEvent | EventError)[]> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let chunk: (ParsedEvent | EventError)[] = [];
  let lineNumber = 0;
  let count = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (lineNumber <= (options.skipLines ?? 0) || isBlank(line)) continue;
    chunk.push(parseNdjsonLine(line, lineNumber - 1, options.now));
    count += 1;
    options.onEvent?.(count);
    if (chunk.length >= options.chunkSize) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
