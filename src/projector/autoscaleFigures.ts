// GET /v1/autoscale: the projection backlog an autoscaler sizes the workers by
// (docs/operations.md, "The autoscaling endpoint").
import type { DatabasePool } from 'slonik';
import type { RedisClient } from '../store/redisClient.ts';
import { projectionLag } from './projectionStatus.ts';

type AutoscaleFigures = Readonly<{
  /** Events not yet projected, all partitions together (projector_lag_events). */
  backlog_events: number;
  /** Age of the oldest of them (projector_lag_seconds). */
  lag_seconds: number;
  /** Partitions of the active version: more busy workers than this cannot help. */
  partitions: number;
  /** Partitions with at least one event pending. */
  partitions_behind: number;
  /** The largest backlog of one partition. */
  max_partition_lag_events: number;
}>;

export const autoscaleFigures = async (
  db: DatabasePool,
  redis: RedisClient,
  prefix: string,
): Promise<AutoscaleFigures> => {
  const { status, partitions } = await projectionLag(db, redis, prefix);
  return {
    backlog_events: status.lag_events,
    lag_seconds: status.lag_seconds,
    partitions: partitions.length,
    partitions_behind: partitions.filter((p) => p.lag_events > 0).length,
    max_partition_lag_events: Math.max(0, ...partitions.map((p) => p.lag_events)),
  };
};
