// `npm run ingest -- [--resume <line>] <file.ndjson|->`: the CLI import, committed chunk by chunk
// (docs/ingest.md; docs/operations.md, "Ingest beside a CLI import").
import { open } from 'node:fs/promises';
import type { DatabasePool } from 'slonik';
import { appendParsed, InvalidBatch, type AppendResult } from '../eventLog/appendEvents.ts';
import { isEventError, type EventError } from '../events/parseEvent.ts';
import { wakeAfterAppend, type Wake } from '../projector/queue.ts';
import { readNdjson } from './readNdjson.ts';
import { weakTokenWarnings } from './weakTokens.ts';

export const CHUNK_SIZE = 2_000;
const PROGRESS_MS = 250;

export type CliIngestArgs = Readonly<{
  db: DatabasePool;
  /** A file path, or '-' for standard input. */
  source: string;
  clock: () => Date;
  wake: Wake;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  isTTY: boolean;
  /** Standard input; process.stdin unless a test provides one. */
  stdin?: NodeJS.ReadableStream;
  /** The service's own public host, which no page may claim as its custom domain. */
  ownHost?: string | null;
  /** Lines 1…resumeAfterLine were committed by an earlier run: go on after them. */
  resumeAfterLine?: number;
}>;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Source = Readonly<{ stream: NodeJS.ReadableStream; close: () => void }>;

/** The input, or a message saying why it cannot be read. */
const openSource = async (source: string, stdin: NodeJS.ReadableStream): Promise<Source | string> => {
  if (source === '-') return { stream: stdin, close: () => undefined }; // not ours to close
  try {
    const handle = await open(source, 'r');
    // A directory opens fine and only fails on read; pipes and devices are welcome.
    if ((await handle.stat()).isDirectory()) {
      await handle.close();
      return `${source} is a directory`;
    }
    const stream = handle.createReadStream();
    return { stream, close: () => stream.destroy() };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return `${source}: no such file`;
    if (code === 'EACCES') return `${source}: permission denied`;
    return `${source}: ${errorText(error)}`;
  }
};

/** Every line whose shape is invalid (the first pass over a file), and how many events it holds. */
const shapeErrors = async (stream: NodeJS.ReadableStream, now: Date, skipLines: number) => {
  const errors: EventError[] = [];
  let events = 0;
  for await (const chunk of readNdjson(stream, { now, chunkSize: CHUNK_SIZE, skipLines })) {
    events += chunk.length;
    errors.push(...chunk.filter(isEventError));
  }
  return { errors, events };
};

const printErrors = (err: NodeJS.WritableStream, errors: readonly EventError[]) => {
  for (const { index, message } of errors) err.write(`line ${String(index + 1)}: ${message}\n`);
};

/**
 * Appends the NDJSON events of `source`, a chunk per transaction; returns the exit code: 0
 * appended, 1 invalid events (nothing appended from the first invalid chunk on), 2 the input
 * cannot be opened, 3 the append failed (database unreachable…).
 */
export const cliIngest = async (args: CliIngestArgs): Promise<number> => {
  const stdin = args.stdin ?? process.stdin;
  const skipLines = args.resumeAfterLine ?? 0;
  const now = args.clock();
  if (args.source !== '-') {
    const check = await openSource(args.source, stdin);
    if (typeof check === 'string') {
      args.err.write(`ingest: cannot read ${check}\n`);
      return 2;
    }
    const shape = await shapeErrors(check.stream, now, skipLines).finally(check.close);
    if (shape.errors.length > 0) {
      printErrors(args.err, shape.errors);
      const rejected = String(shape.errors.length);
      args.err.write(`rejected: ${rejected} invalid events of ${String(shape.events)}; nothing appended\n`);
      return 1;
    }
  }
  const input = await openSource(args.source, stdin);
  if (typeof input === 'string') {
    args.err.write(`ingest: cannot read ${input}\n`);
    return 2;
  }
  let read = 0;
  const showProgress = () => {
    args.err.write(`\r${String(read)} events read…`);
  };
  const progress = args.isTTY ? setInterval(showProgress, PROGRESS_MS) : null;
  const endProgress = () => {
    if (progress === null) return;
    clearInterval(progress);
    args.err.write('\r\x1b[K'); // erase the progress line before the result is printed
  };

  const wake = (result: AppendResult) =>
    wakeAfterAppend(args.wake, result.pages, (error) => {
      args.err.write(
        `ingest: warning: projectors not woken (${errorText(error)}); they catch up on their next poll\n`,
      );
    });

  const total = { accepted: 0, duplicates: 0, lastPosition: null as string | null };
  let through = skipLines; // the last line committed
  const summary = () =>
    `appended ${String(total.accepted)}, duplicates ${String(total.duplicates)}, ` +
    `last position ${total.lastPosition ?? 'none'}`;
  const resumeHint = () =>
    through > skipLines || skipLines > 0
      ? `; lines up to ${String(through)} are committed (${summary()}): run again with --resume ${String(through)}`
      : '; nothing appended';
  try {
    const onEvent = (count: number) => {
      read = count;
    };
    for await (const chunk of readNdjson(input.stream, { now, chunkSize: CHUNK_SIZE, onEvent, skipLines })) {
      const result = await appendParsed(args.db, [chunk], {
        now,
        onCommitted: wake,
        ownHost: args.ownHost ?? null,
      });
      for (const { index, message } of weakTokenWarnings(chunk))
        args.err.write(`line ${String(index + 1)}: warning: ${message}\n`);
      total.accepted += result.accepted;
      total.duplicates += result.duplicates;
      total.lastPosition = result.lastPosition ?? total.lastPosition;
      const last = chunk.at(-1);
      if (last !== undefined) through = last.index + 1;
    }
    endProgress();
    args.out.write(`${summary()}\n`);
    return 0;
  } catch (error) {
    endProgress();
    if (error instanceof InvalidBatch) {
      printErrors(args.err, error.details);
      args.err.write(
        `rejected: ${String(error.details.length)} invalid events of ${String(read)}${resumeHint()}\n`,
      );
      return 1;
    }
    args.err.write(`ingest failed: ${errorText(error)}${through > skipLines ? resumeHint() : ''}\n`);
    return 3;
  } finally {
    input.close();
  }
};
