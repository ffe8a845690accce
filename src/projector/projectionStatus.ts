// How far the read models are behind the log (operations.md): the log head, the position up to
// which everything is projected, and how many events and seconds are still pending. Scrapes and
// probes ask often, so it is one statement over the rows after the lowest checkpoint (an index
// range scan when little is pending), stopping after LAG_COUNT_CAP rows.
import type { RedisClient } from '../models/redis/redisClient.ts';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { parseCheckpoint, START, type Checkpoint } from '../eventLog/readAfter.ts';
import { partitionTag } from '../models/control/keys.ts';
import { checkpointRead } from '../models/control/reads.ts';
import { listRead, runRead } from '../models/redis/reads.ts';
import { readActive } from '../models/control/versions.ts';
import { quarantineRead } from '../models/quarantine/reads.ts';

export type QuarantinedPage = {
  page: string;
  kind: 'event' | 'render';
  position: string;
  error: string;
  since: string;
};

export type ProjectionStatus = {
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

export const LAG_COUNT_CAP = 1_000_000;

/** The checkpoint of every partition of the active version (partition 0 of 1 at START when none). */
const partitionCheckpoints = async (redis: RedisClient, prefix: string): Promise<Checkpoint[]> => {
  const active = await readActive(redis, prefix);
  if (!active) return [START];
  const reads = Array.from({ length: active.partitions }, (_, p) =>
    checkpointRead(partitionTag(prefix, active.version, p)),
  );
  return (await runRead(redis, listRead(reads))).map((text) => parseCheckpoint(text));
};

const before = (a: Checkpoint, b: Checkpoint): boolean =>
  BigInt(a.tx) < BigInt(b.tx) || (a.tx === b.tx && BigInt(a.pos) < BigInt(b.pos));

const Status = z.object({
  head: z.string(),
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
  redis: RedisClient,
  prefix: string,
): Promise<ProjectionStatus> => {
  const checkpoints = await partitionCheckpoints(redis, prefix);
  const lowest = checkpoints.reduce((a, b) => (before(b, a) ? b : a));
  const status = await db.one(sql.type(Status)`
    WITH checkpoints AS (
      SELECT (ordinality - 1)::bigint AS partition, tx, pos
      FROM unnest(${sql.array(
        checkpoints.map((c) => c.tx),
        'xid8',
      )}, ${sql.array(
        checkpoints.map((c) => c.pos),
        'int8',
      )}) WITH ORDINALITY AS c(tx, pos, ordinality)
    ), scanned AS (
      SELECT transaction_id, position, recorded_at, page_hash % ${checkpoints.length} AS partition
      FROM event_log
      WHERE (transaction_id, position) > (${lowest.tx}::xid8, ${lowest.pos}::bigint)
      LIMIT ${LAG_COUNT_CAP}
    )
    SELECT (SELECT coalesce(max(position), 0) FROM event_log)::text AS head,
           count(*)::text AS lag,
           extract(epoch FROM now() - min(s.recorded_at))::float8 AS oldest,
           min(s.position)::text AS first
    FROM scanned s JOIN checkpoints c USING (partition)
    WHERE (s.transaction_id, s.position) > (c.tx, c.pos)`);
  const lag = Number(status.lag);
  return {
    log_position: status.head,
    // Everything before the first pending event is projected.
    projected_position: status.first === null ? status.head : String(BigInt(status.first) - 1n),
    lag_events: lag,
    lag_seconds: lag === 0 ? 0 : Math.round(Math.max(0, status.oldest ?? 0) * 1000) / 1000,
    quarantined_pages: await quarantinedPages(redis, prefix),
  };
};
