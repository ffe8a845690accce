// How far the read models are behind the log (operations.md): the log head, the position up to
// which everything is projected, and how many events and seconds are still pending.
import type { Redis } from 'ioredis';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { parseCheckpoint, START, type Checkpoint } from '../eventLog/readAfter.ts';
import { partitionTag } from '../models/control/keys.ts';
import { checkpointRead } from '../models/control/reads.ts';
import { listRead, runRead } from '../models/redis/reads.ts';
import { readActive } from '../models/control/versions.ts';

export type ProjectionStatus = {
  log_position: string;
  projected_position: string;
  lag_events: number;
  lag_seconds: number;
};

const LAG_COUNT_CAP = 10_000_000;

type PartitionCheckpoint = Readonly<{ partition: number; partitions: number; checkpoint: Checkpoint }>;

/** The checkpoint of every partition of the active version (none when nothing is active). */
const partitionCheckpoints = async (redis: Redis, prefix: string): Promise<PartitionCheckpoint[]> => {
  const active = await readActive(redis, prefix);
  if (!active) return [];
  const reads = Array.from({ length: active.partitions }, (_, p) =>
    checkpointRead(partitionTag(prefix, active.version, p)),
  );
  return (await runRead(redis, listRead(reads))).map((text, partition) => ({
    partition,
    partitions: active.partitions,
    checkpoint: parseCheckpoint(text),
  }));
};

const Pending = z.object({
  partition: z.number(),
  lag: z.string(),
  oldest: z.number().nullable(),
  first: z.string().nullable(),
});

/**
 * Each partition's lag is the events *of that partition* after its checkpoint, so an idle
 * partition (which only moves past others' events on the next poll) adds nothing.
 */
export const projectionStatus = async (
  db: DatabasePool,
  redis: Redis,
  prefix: string,
): Promise<ProjectionStatus> => {
  const checkpoints = await partitionCheckpoints(redis, prefix);
  const head = await db.oneFirst(
    sql.type(z.object({ head: z.string() }))`SELECT coalesce(max(position), 0)::text AS head FROM event_log`,
  );
  const parts = checkpoints.length > 0 ? checkpoints : [{ partition: 0, partitions: 1, checkpoint: START }];
  const pending = await Promise.all(
    parts.map(({ partition, partitions, checkpoint }) =>
      db.one(sql.type(Pending)`
        WITH pending AS (
          SELECT position, recorded_at FROM event_log
          WHERE (transaction_id, position) > (${checkpoint.tx}::xid8, ${checkpoint.pos}::bigint)
            AND page_hash % ${partitions} = ${partition}
          LIMIT ${LAG_COUNT_CAP}
        )
        SELECT ${partition}::int AS partition, count(*)::text AS lag,
               extract(epoch FROM now() - min(recorded_at))::float8 AS oldest, min(position)::text AS first
        FROM pending`),
    ),
  );
  const lag = pending.reduce((sum, p) => sum + Number(p.lag), 0);
  const oldest = Math.max(0, ...pending.map((p) => p.oldest ?? 0));
  // Everything before the first pending event is projected.
  const firstPending = pending.flatMap((p) => (p.first === null ? [] : [BigInt(p.first)]));
  const projected =
    firstPending.length === 0 ? head : String(firstPending.reduce((a, b) => (a < b ? a : b)) - 1n);
  return {
    log_position: head,
    projected_position: projected,
    lag_events: lag,
    lag_seconds: lag === 0 ? 0 : Math.round(oldest * 1000) / 1000,
  };
};
