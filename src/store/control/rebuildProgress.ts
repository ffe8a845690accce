// How far a running rebuild has got, for the projector_rebuild_* gauges; trusted only while a
// rebuild holds the lock.
import type { RedisClient } from '../redisClient.ts';
import { rebuildProgressKey } from '../../../projections/store/control/keys.ts';
import { lockHolderPurpose } from './rebuildLock.ts';

const WRITE_EVERY_MS = 1_000;

type RebuildProgressView = Readonly<{
  running: boolean;
  /** Events replayed so far (0 when none runs). */
  events: number;
  startedAtMs: number | null;
  /** When the rebuild last moved on: events replayed or a partition caught up. */
  updatedAtMs: number | null;
}>;

type ProgressRecorder = Readonly<{
  /** Records progress, at most once a second unless `force`. Never throws: progress is advisory. */
  record: (events: number, force?: boolean) => Promise<void>;
  clear: () => Promise<void>;
}>;

export const recordRebuildProgress = (
  redis: RedisClient,
  prefix: string,
  version: number,
  now: () => number = Date.now,
): ProgressRecorder => {
  const key = rebuildProgressKey(prefix);
  const startedAt = now();
  let lastWrite = 0;
  let lastEvents = 0;
  const record = async (events: number, force = false) => {
    lastEvents = Math.max(lastEvents, events);
    const at = now();
    if (!force && at - lastWrite < WRITE_EVERY_MS) return;
    lastWrite = at;
    await redis
      .hset(key, { version, started_at: startedAt, updated_at: at, events: lastEvents })
      .catch(() => undefined);
  };
  return {
    record,
    clear: () =>
      redis.del(key).then(
        () => undefined,
        () => undefined,
      ),
  };
};

export const readRebuildProgress = async (
  redis: RedisClient,
  prefix: string,
): Promise<RebuildProgressView> => {
  const [holder, hash] = await Promise.all([
    lockHolderPurpose(redis, prefix),
    redis.hgetall(rebuildProgressKey(prefix)),
  ]);
  if (holder !== 'rebuild') return { running: false, events: 0, startedAtMs: null, updatedAtMs: null };
  const number = (text: string | undefined) => (text === undefined ? null : Number(text));
  return {
    running: true,
    events: number(hash['events']) ?? 0,
    startedAtMs: number(hash['started_at']),
    updatedAtMs: number(hash['updated_at']),
  };
};
