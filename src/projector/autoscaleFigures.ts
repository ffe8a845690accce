// GET /v1/autoscale: what an autoscaler (KEDA's metrics-api scaler) needs to size the workers, in
// one small JSON object. It is the projection's own backlog, read like the lag gauges: the BullMQ
// wait list holds at most one job per partition whatever the backlog (wake-ups are deduplicated),
// misses delayed (retrying) and prioritised jobs, and says nothing of how far behind the models are.
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
