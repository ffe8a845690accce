// `npm run ingest -- <file.ndjson|->`: the CLI door of ingest.md. The input is streamed into
// one transaction (all or nothing), 2,000 events at a time, so its size is bounded by PostgreSQL,
// not by this process's memory.
import { open } from 'node:fs/promises';
import type { DatabasePool } from 'slonik';
import { appendParsed, InvalidBatch, type AppendResult } from '../eventLog/appendEvents.ts';
import { wakeAfterAppend, type Wake } from '../projector/queue.ts';
import { readNdjson } from './readNdjson.ts';

export const CHUNK_SIZE = 2_000;
const PROGRESS_MS = 250;
// The transaction stays open while the input is read: a pipe may pause far longer than the pool's
// 10 s idle-in-transaction limit, which is meant for stuck application code, not slow producers.
export const INPUT_IDLE_MS = 10 * 60_000;

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

/**
 * Appends the NDJSON events of `source`; returns the exit code: 0 appended, 1 invalid events
 * (nothing appended), 2 the input cannot be opened, 3 the append failed (database unreachable…).
 */
export const cliIngest = async (args: CliIngestArgs): Promise<number> => {
  const input = await openSource(args.source, args.stdin ?? process.stdin);
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

  const now = args.clock();
  try {
    const onEvent = (count: number) => {
      read = count;
    };
    const events = readNdjson(input.stream, { now, chunkSize: CHUNK_SIZE, onEvent });
    const result = await appendParsed(args.db, events, {
      now,
      onCommitted: wake,
      idleTimeoutMs: INPUT_IDLE_MS,
      ownHost: args.ownHost ?? null,
    });
    endProgress();
    args.out.write(
      `appended ${String(result.accepted)}, duplicates ${String(result.duplicates)}, ` +
        `last position ${result.lastPosition ?? 'none'}\n`,
    );
    return 0;
  } catch (error) {
    endProgress();
    if (error instanceof InvalidBatch) {
      for (const { index, message } of error.details)
        args.err.write(`line ${String(index + 1)}: ${message}\n`);
      const rejected = String(error.details.length);
      args.err.write(`rejected: ${rejected} invalid events of ${String(read)}; nothing appended\n`);
      return 1;
    }
    args.err.write(`ingest failed: ${errorText(error)}\n`);
    return 3;
  } finally {
    input.close();
  }
};
