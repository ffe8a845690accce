// The one append path behind both ingest doors. Runs inside a transaction: reference rules,
// idempotency, the insert and the write model, chunk by chunk, so the CLI can stream a large
// file into one all-or-nothing transaction while HTTP writes a single chunk.
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import { isEventError, type EventError, type ParsedEvent } from '../events/parseEvent.ts';
import { pageHash } from '../shared/pageHash.ts';
import { domainLockKeys } from './domainClaims.ts';
import { createLockOrder, DOMAIN_LOCKS, IMPORT_LOCK, PAGE_LOCKS } from './lockOrder.ts';
import { checksBeforeHorizon } from './retentionHorizon.ts';
import { applyToRegistry, emptyRegistry, loadRegistry, persistRegistry } from './registry.ts';

export type AppendResult = {
  accepted: number;
  duplicates: number;
  lastPosition: string | null;
  pages: string[];
};

const lockedPageKey = (page: string) => pageHash(page) | 0; // advisory locks take int4 pairs

type BatchWriterOptions = Readonly<{
  /** The service's own public host, which no page may claim as its custom domain. */
  ownHost?: string | null;
  /** The transaction writes more than one chunk (an import): imports run one at a time. */
  multiChunk?: boolean;
}>;

export const createBatchWriter = (tx: DatabaseTransactionConnection, options: BatchWriterOptions = {}) => {
  const registry = emptyRegistry(options.ownHost ?? null);
  const locks = createLockOrder(tx);
  const seenIds = new Set<string>();
  const pages = new Set<string>();
  const errors: EventError[] = [];
  let accepted = 0;
  let duplicates = 0;
  let lastPosition: string | null = null;

  // One writer per page at a time: the reference rules read what another batch may be changing.
  // Likewise per claimed custom domain. All in one order (lockOrder.ts): no deadlock.
  const lockPages = async (events: readonly ParsedEvent[]) => {
    if (options.multiChunk === true) await locks.lock(IMPORT_LOCK, [0]);
    await locks.lock(
      PAGE_LOCKS,
      events.map((e) => lockedPageKey(e.page)),
    );
    await locks.lock(DOMAIN_LOCKS, domainLockKeys(events));
  };

  const knownIds = async (ids: readonly string[]): Promise<Set<string>> => {
    if (ids.length === 0) return new Set();
    const rows = await tx.anyFirst(sql.type(z.object({ event_id: z.string() }))`
      SELECT event_id FROM event_ids WHERE event_id = ANY(${sql.array(ids, 'text')})`);
    return new Set(rows);
  };

  // Positions are drawn before the ids are claimed, because event_ids records the position of
  // each id's event; a position drawn for an event that turns out to be a duplicate is a gap.
  const drawPositions = async (count: number): Promise<readonly string[]> => {
    if (count === 0) return [];
    return tx.anyFirst(sql.type(z.object({ position: z.string() }))`
      SELECT nextval('event_log_position_seq') AS position FROM generate_series(1, ${count}) ORDER BY 1`);
  };

  const claimIds = async (claims: readonly (readonly [string, string])[]): Promise<Set<string>> => {
    if (claims.length === 0) return new Set();
    const rows = await tx.anyFirst(sql.type(z.object({ event_id: z.string() }))`
      INSERT INTO event_ids (event_id, position) SELECT * FROM ${sql.unnest(claims, ['text', 'int8'])}
      ON CONFLICT DO NOTHING RETURNING event_id`);
    return new Set(rows);
  };

  const insert = async (events: readonly (readonly [ParsedEvent, string])[]) => {
    const rows = events.map(([e, position]) => [
      position,
      e.type,
      e.page,
      pageHash(e.page),
      new Date(e.atMs).toISOString(),
      JSON.stringify(e.data),
      e.id,
    ]);
    return tx.oneFirst(sql.type(z.object({ last: z.string() }))`
      WITH inserted AS (
        INSERT INTO event_log (position, type, page, page_hash, at, data, event_id)
        SELECT * FROM ${sql.unnest(rows, ['int8', 'text', 'text', 'int8', 'timestamptz', 'jsonb', 'text'])}
        RETURNING position
      ) SELECT max(position)::text AS last FROM inserted`);
  };

  /** Checks and appends one chunk; events after an invalid one are still checked, never appended. */
  const write = async (chunk: readonly (ParsedEvent | EventError)[]): Promise<void> => {
    errors.push(...chunk.filter(isEventError));
    const dropped = await checksBeforeHorizon(
      tx,
      chunk.filter((e): e is ParsedEvent => !isEventError(e)),
    );
    errors.push(...dropped);
    const refused = new Set(dropped.map((d) => d.index));
    const parsed = chunk.filter((e): e is ParsedEvent => !isEventError(e) && !refused.has(e.index));
    await lockPages(parsed);
    const ids = parsed.flatMap((e) => (e.id !== null && !seenIds.has(e.id) ? [e.id] : []));
    const inLog = await knownIds([...new Set(ids)]);
    let fresh: ParsedEvent[] = [];
    for (const event of parsed) {
      if (event.id !== null && (inLog.has(event.id) || seenIds.has(event.id))) {
        duplicates += 1;
        continue;
      }
      if (event.id !== null) seenIds.add(event.id);
      fresh.push(event);
    }
    // Ids are claimed before the reference rules see the events: a concurrent batch may have
    // committed the same id since knownIds (it wins, ours is a duplicate), and a duplicate must
    // change nothing in the write model. A batch already known to be invalid claims nothing.
    let numbered: (readonly [ParsedEvent, string])[] = [];
    if (errors.length === 0) {
      const positions = await drawPositions(fresh.length);
      const all = fresh.map((e, i) => [e, positions[i] ?? ''] as const);
      const claimed = await claimIds(
        all.flatMap(([e, position]) => (e.id === null ? [] : [[e.id, position] as const])),
      );
      numbered = all.filter(([e]) => e.id === null || claimed.has(e.id));
      duplicates += fresh.length - numbered.length;
      fresh = numbered.map(([e]) => e);
    }
    await loadRegistry(tx, registry, fresh);
    for (const event of fresh) {
      const broken = applyToRegistry(registry, event);
      if (broken) errors.push({ index: event.index, message: broken });
    }
    if (errors.length > 0) return; // the batch will be rolled back: skip the writes
    if (numbered.length > 0) {
      lastPosition = await insert(numbered);
      accepted += numbered.length;
      for (const [event] of numbered) pages.add(event.page);
    }
    await persistRegistry(tx, registry);
  };

  return {
    write,
    errors: (): readonly EventError[] => [...errors].sort((a, b) => a.index - b.index),
    result: (): AppendResult => ({ accepted, duplicates, lastPosition, pages: [...pages] }),
  };
};
