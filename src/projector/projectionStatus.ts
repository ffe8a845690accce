// How far the read models are behind the log (operations.md): the log head, the checkpoint of
// the partition furthest behind, and how many events and seconds separate them.
import type { Redis } from 'ioredis';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { parseCheckpoint, START, type Checkpoint } from '../eventLog/readAfter.ts';
import { partitionKeys, partitionTag } from '../readModels/keys.ts';
import { readActive } from './versions.ts';

export type ProjectionStatus = {
  log_position: string;
  projected_position: string;
  lag_events: number;
  lag_seconds: number;
};

const LAG_COUNT_CAP = 10_000_000;

const behind = (a: Checkpoint, b: Checkpoint): boolean =>
  BigInt(a.tx) < BigInt(b.tx) || (a.tx === b.tx && BigInt(a.pos) < BigInt(b.pos));

/** The checkpoint of the partition furthest behind on the active version (START when none). */
export const slowestCheckpoint = async (redis: Redis, prefix: string): Promise<Checkpoint> => {
  const active = await readActive(redis, prefix);
  if (!active) return START;
  const keys = Array.from({ length: active.partitions }, (_, p) =>
    partitionKeys(partitionTag(prefix, active.version, p)).checkpoint,
  );
  const values = await redis.mget(...keys);
  return values.map(parseCheckpoint).reduce((slowest, c) => (behind(c, slowest) ? c : slowest));
};

export const projectionStatus = async (db: DatabasePool, redis: Redis, prefix: string): Promise<ProjectionStatus> => {
  const checkpoint = await slowestCheckpoint(redis, prefix);
  const row = await db.one(sql.type(
    z.object({ head: z.string(), lag: z.string(), oldest: z.number().nullable() }),
  )`
    WITH pending AS (
      SELECT recorded_at FROM event_log
      WHERE (transaction_id, position) > (${checkpoint.tx}::xid8, ${checkpoint.pos}::bigint)
      LIMIT ${LAG_COUNT_CAP}
    )
    SELECT coalesce((SELECT max(position) FROM event_log), 0)::text AS head,
           (SELECT count(*) FROM pending)::text AS lag,
           (SELECT extract(epoch FROM now() - min(recorded_at)) FROM pending)::float8 AS oldest`);
  const lag = Number(row.lag);
  return {
    log_position: row.head,
    projected_position: checkpoint.pos,
    lag_events: lag,
    lag_seconds: lag === 0 ? 0 : Math.max(0, Math.round((row.oldest ?? 0) * 1000) / 1000),
  };
};
