// The bulk of a rebuild: the log read once, in order, each batch split across the partitions and
// committed with their checkpoints (docs/architecture.md, "Versions and rebuilds").
import type { RedisClient } from '../store/redisClient.ts';
import {
  formatCheckpoint,
  readAfter,
  START,
  type Checkpoint,
  type LogRow,
  type ReadResult,
} from '../eventLog/readAfter.ts';
import { must } from '../shared/must.ts';
import { partitionTag } from '../../projections/store/control/keys.ts';
import { commitBatch, encodeBatch, type EncodedBatch, type Fence } from '../store/control/commitWrites.ts';
import { pageHash } from '../shared/pageHash.ts';
import { checkpointAfter, planWithinCommit } from './planWithinCommit.ts';
import { projectBatch } from './projectBatch.ts';
import { poisonedPages, quarantineWrites, recordDeadLetters } from './poisonedPages.ts';
import type { ProjectorDeps } from './runPartition.ts';

type ReplayTarget = Readonly<{ prefix: string; version: number; partitions: number }>;

const commitPartition = async (redis: RedisClient, fence: Fence, encoded: EncodedBatch) => {
  if (!(await commitBatch(redis, fence, encoded)))
    throw new Error(`replay of ${fence.tag} was fenced: another process wrote the version being built`);
};

/** Projects the whole log (as of now) into a fresh version; returns the number of events read. */
export const replayLog = async (
  deps: ProjectorDeps,
  target: ReplayTarget,
  onProgress?: (events: number) => void,
): Promise<number> => {
  // Each partition's checkpoint is its own last event, as continuous projection leaves it.
  const partitions: { tag: string; checkpoint: Checkpoint }[] = Array.from(
    { length: target.partitions },
    (_, p) => ({ tag: partitionTag(target.prefix, target.version, p), checkpoint: START }),
  );
  const read = (from: Checkpoint) => readAfter(deps.db, from, { limit: deps.batchSize });
  let from = START;
  let pending: Promise<ReadResult> = read(from);
  let events = 0;
  for (;;) {
    const { rows, scannedTo } = await pending;
    if (scannedTo === null) return events;
    pending = read(scannedTo);
    pending.catch(() => undefined); // surfaced by the await above on the next turn
    const now = deps.clock().getTime();
    // Every partition plans its share of the rows; all must fit one commit, or the rows are cut.
    const planRows = (part: readonly LogRow[]) => {
      const shares = partitions.map((partition) => ({ partition, rows: [] as LogRow[] }));
      for (const row of part)
        must(shares[pageHash(row.page) % target.partitions], 'the partition of a page').rows.push(row);
      return Promise.all(
        shares.map(async ({ partition, rows: mine }) => {
          const last = mine.at(-1);
          if (!last) return null;
          const { tag, checkpoint: projectedTo } = partition;
          const effects = await projectBatch(deps.redis, {
            tag,
            rows: mine,
            now,
            log: { db: deps.db, projectedTo },
          });
          const poisoned = poisonedPages(mine, effects.deadLetters);
          const writes = [...effects.writes, ...quarantineWrites(tag, poisoned, now)];
          const encoded = encodeBatch(tag, writes);
          return { partition, effects, poisoned, encoded, next: checkpointAfter(last) };
        }),
      );
    };
    const load = (plans: Awaited<ReturnType<typeof planRows>>) =>
      Math.max(0, ...plans.map((plan) => (plan ? plan.encoded.load : 0)));
    const batch = await planWithinCommit(rows, scannedTo, planRows, load);
    if (batch.cut) {
      pending = read(batch.to); // the rows after the cut are read again
      pending.catch(() => undefined);
    }
    await Promise.all(
      batch.plan.map(async (plan) => {
        if (!plan) return;
        const { partition, effects, poisoned, encoded, next } = plan;
        if (effects.deadLetters.length > 0)
          await recordDeadLetters(deps, `v${target.version}`, effects.deadLetters, poisoned); // before the commit
        const fence = {
          tag: partition.tag,
          expected: formatCheckpoint(partition.checkpoint),
          next: formatCheckpoint(next),
        };
        await commitPartition(deps.redis, fence, encoded);
        partition.checkpoint = next;
      }),
    );
    from = batch.to;
    events += batch.rows.length;
    onProgress?.(events);
  }
};
