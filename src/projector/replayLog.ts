// The bulk of a rebuild: the log is read once, in order, and each batch is split across the
// partitions and committed to each with its checkpoint (the same compare-and-set as always).
// The next batch is read from PostgreSQL while the current one is applied to Redis. Continuous
// projection reads per partition instead, because each partition is its own job there.
import type { RedisClient } from '../models/redis/redisClient.ts';
import { formatCheckpoint, readAfter, START, type ReadResult } from '../eventLog/readAfter.ts';
import { partitionTag } from '../models/control/keys.ts';
import { commitWrites } from '../models/control/commitWrites.ts';
import type { WriteOp } from '../models/redis/writeOps.ts';
import { pageHash } from '../shared/pageHash.ts';
import { projectBatch } from './projectBatch.ts';
import { poisonedPages, quarantineWrites, recordDeadLetters } from './poisonedPages.ts';
import type { ProjectorDeps } from './runPartition.ts';

export type ReplayTarget = Readonly<{ prefix: string; version: number; partitions: number }>;

const commitPartition = async (
  redis: RedisClient,
  tag: string,
  from: string,
  to: string,
  writes: WriteOp[],
) => {
  const fence = { tag, expected: from, next: to };
  if (!(await commitWrites(redis, fence, writes)))
    throw new Error(`replay of ${tag} was fenced: another process wrote the version being built`);
};

/** Projects the whole log (as of now) into a fresh version; returns the number of events read. */
export const replayLog = async (
  deps: ProjectorDeps,
  target: ReplayTarget,
  onProgress?: (events: number) => void,
): Promise<number> => {
  const tags = Array.from({ length: target.partitions }, (_, p) =>
    partitionTag(target.prefix, target.version, p),
  );
  const read = (from: typeof START) => readAfter(deps.db, from, { limit: deps.batchSize });
  let from = START;
  let pending: Promise<ReadResult> = read(from);
  let events = 0;
  for (;;) {
    const { rows, scannedTo } = await pending;
    if (scannedTo === null) return events;
    pending = read(scannedTo);
    pending.catch(() => undefined); // surfaced by the await above on the next turn
    const byPartition = tags.map((): typeof rows => []);
    for (const row of rows) byPartition[pageHash(row.page) % target.partitions]!.push(row);
    const now = deps.clock().getTime();
    const expected = formatCheckpoint(from);
    const next = formatCheckpoint(scannedTo);
    await Promise.all(
      tags.map(async (tag, p) => {
        const effects = await projectBatch(deps.redis, tag, byPartition[p]!, now, {
          db: deps.db,
          projectedTo: from,
        });
        const poisoned = poisonedPages(byPartition[p]!, effects.deadLetters);
        await recordDeadLetters(deps, `v${target.version}`, effects.deadLetters, poisoned); // before the commit
        await commitPartition(deps.redis, tag, expected, next, [
          ...effects.writes,
          ...quarantineWrites(tag, poisoned, now),
        ]);
      }),
    );
    from = scannedTo;
    events += rows.length;
    onProgress?.(events);
  }
};
