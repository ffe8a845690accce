// How far the read models are behind the log, in one bounded statement (docs/operations.md,
// "Metrics").
import type { RedisClient } from '../store/redisClient.ts';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { parseCheckpoint, START, type Checkpoint } from '../eventLog/readAfter.ts';
import { partitionTag } from '../../projections/store/control/keys.ts';
import { checkpointRead } from '../store/control/reads.ts';
import { listRead, runRead } from '../store/reads.ts';
import { readActive } from '../store/control/versions.ts';
import { quarantineRead } from '../readModels/quarantine/reads.ts';
import { must } from '../shared/must.ts';

type QuarantinedPage = {
  page: string;
  kind: 'event' | 'render';
  position: string;
  error: string;
  since: string;
};

type ProjectionStatus = {
  log_position: string;
  projected_position: string;
  /**
   * Saturates at LAG_COUNT_CAP: counting further would cost a scan of the whole backlog (beyond
   * it, projected_position is taken from the rows counted, so it may read a little high).
   */
  lag_events: number;
  lag_seconds: number;
  /** Pages whose projection or render failed, kept as they were (docs/architecture.md). */
  quarantined_pages: QuarantinedPage[];
};

/** The quarantined pages of the active version, by slug. */
const quarantinedPages = async (redis: RedisClient, prefix: string): Promise<QuarantinedPage[]> => {
  const active = await readActive(redis, prefix);
  if (!active) return [];
  const tags = Array.from({ length: active.partitions }, (_, p) => partitionTag(prefix, active.version, p));
  const maps = await runRead(redis, listRead(tags.map(quarantineRead)));
  return maps
    .flatMap((map) => [...map].map(([page, q]) => ({ page, ...q })))
    .sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
};

const LAG_COUNT_CAP = 1_000_000;

/** The checkpoint of every partition of the active version (partition 0 of 1 at START when none). */
const partitionCheckpoints = async (redis: RedisClient, prefix: string): Promise<Checkpoint[]> => {
  const active = await readActive(redis, prefix);
  if (!active) return [START];
  const reads = Array.from({ length: active.partitions }, (_, p) =>
    checkpointRead(partitionTag(prefix, active.version, p)),
  );
  return (await runRead(redis, listRead(reads))).map((text) => parseCheckpoint(text));
};

const PartitionRow = z.object({
  partition: z.number(),
  head: z.string(),
  lag: z.string(),
  oldest: z.number().nullable(),
  first: z.string().nullable(),
});

/** One partition's share of the lag (the per-partition gauges and the autoscaling endpoint). */
type PartitionLag = Readonly<{ partition: number; lag_events: number; lag_seconds: number }>;

const ageSeconds = (lag: number, oldest: number | null): number =>
  lag === 0 ? 0 : Math.round(Math.max(0, oldest ?? 0) * 1000) / 1000;

/**
 * Each partition's lag is the events *of that partition* after its checkpoint (a partition reads
 * only its own events, so an idle partition's checkpoint stays at its last event). One range
 * scan of the partition index per partition, each stopping after LAG_COUNT_CAP rows; one
 * statement answers the whole status and every partition's share.
 */
export const projectionLag = async (
  db: DatabasePool,
  redis: RedisClient,
  prefix: string,
): Promise<{ status: ProjectionStatus; partitions: PartitionLag[] }> => {
  const checkpoints = await partitionCheckpoints(redis, prefix);
  const count = sql.literalValue(String(checkpoints.length));
  const rows = await db.many(sql.type(PartitionRow)`
    WITH checkpoints AS (
      SELECT (ordinality - 1)::bigint AS partition, tx, pos
      FROM unnest(${sql.array(
        checkpoints.map((c) => c.tx),
        'xid8',
      )}, ${sql.array(
        checkpoints.map((c) => c.pos),
        'int8',
      )}) WITH ORDINALITY AS c(tx, pos, ordinality)
    ), pending AS (
      SELECT c.partition, s.recorded_at, s.position FROM checkpoints c CROSS JOIN LATERAL (
        SELECT e.recorded_at, e.position FROM event_log e
        WHERE e.page_hash % ${count}::bigint = c.partition
          AND (e.transaction_id, e.position) > (c.tx, c.pos)
        LIMIT ${LAG_COUNT_CAP}
      ) s
    )
    SELECT c.partition::int AS partition,
           (SELECT coalesce(max(position), 0) FROM event_log)::text AS head,
           count(p.position)::text AS lag,
           extract(epoch FROM now() - min(p.recorded_at))::float8 AS oldest,
           min(p.position)::text AS first
    FROM checkpoints c LEFT JOIN pending p ON p.partition = c.partition
    GROUP BY c.partition ORDER BY c.partition`);
  const partitions = rows.map((row) => ({
    partition: row.partition,
    lag_events: Number(row.lag),
    lag_seconds: ageSeconds(Number(row.lag), row.oldest),
  }));
  const lag = Math.min(
    LAG_COUNT_CAP,
    partitions.reduce((sum, p) => sum + p.lag_events, 0),
  );
  const firsts = rows.flatMap((row) => (row.first === null ? [] : [BigInt(row.first)]));
  const first = firsts.length === 0 ? null : firsts.reduce((a, b) => (a < b ? a : b));
  const oldest = Math.max(0, ...rows.map((row) => (Number(row.lag) === 0 ? 0 : (row.oldest ?? 0))));
  const head = must(rows[0], 'a partition row').head; // db.many: one row at least, each with the head
  return {
    status: {
      log_position: head,
      // Everything before the first pending event is projected.
      projected_position: first === null ? head : String(first - 1n),
      lag_events: lag,
      lag_seconds: ageSeconds(lag, oldest),
      quarantined_pages: await quarantinedPages(redis, prefix),
    },
    partitions,
  };
};

export const projectionStatus = async (
  db: DatabasePool,
  redis: RedisClient,
  prefix: string,
): Promise<ProjectionStatus> => (await projectionLag(db, redis, prefix)).status;
