// The Redis side of the purge outbox (projections/store/control/keys.ts, `purges`): claim what a
// partition has queued (each claim records its drainer), drop a claim the edge accepted, give a
// refused one back for later. Every command names keys of one partition, so it works on Redis
// Cluster too.
import { partitionKeys } from '../../projections/store/control/keys.ts';
import type { RedisClient } from '../store/redisClient.ts';
import { withScripts } from '../store/scripts.ts';

/** One claimed purge: its surrogate key, whether hard, when first queued (ms), and its claim. */
export type ClaimedPurge = Readonly<{ key: string; hard: boolean; since: number; claim: string }>;

const parseClaim = (claim: string): ClaimedPurge => {
  const bar = claim.indexOf('|');
  const member = claim.slice(bar + 1);
  return { key: member.slice(2), hard: member.startsWith('h:'), since: Number(claim.slice(0, bar)), claim };
};

/** Claims up to `limit` purges of `tag` for `owner` until `claimEnd` (ms), oldest first; the claims of `deadOwners` are taken back first, whatever their lease. */
export const claimPurges = async (
  redis: RedisClient,
  tag: string,
  {
    now,
    claimEnd,
    limit,
    owner,
    deadOwners,
  }: Readonly<{ now: number; claimEnd: number; limit: number; owner: string; deadOwners: readonly string[] }>,
): Promise<ClaimedPurge[]> => {
  const keys = partitionKeys(tag);
  const claims = await withScripts(redis).claimPurges(
    keys.purges,
    keys.purgesClaimed,
    keys.purgesOwners,
    now,
    claimEnd,
    limit,
    owner,
    ...deadOwners,
  );
  return claims.map(parseClaim);
};

/** The drainers holding claims of `tag`. */
export const claimOwners = async (redis: RedisClient, tag: string): Promise<string[]> => [
  ...new Set(await redis.hvals(partitionKeys(tag).purgesOwners)),
];

/** The edge accepted them: gone for good. */
export const dropClaims = async (redis: RedisClient, tag: string, claims: readonly ClaimedPurge[]) => {
  if (claims.length === 0) return;
  const keys = partitionKeys(tag);
  const members = claims.map((c) => c.claim);
  // One transaction on one Cluster slot: no claim is left without its owner or the reverse.
  const replies = await redis
    .multi()
    .zrem(keys.purgesClaimed, ...members)
    .hdel(keys.purgesOwners, ...members)
    .exec();
  for (const [error] of replies ?? []) if (error) throw error;
};

/** The edge refused them: taken again at `retryAt` (ms), by this process or any other. */
export const retryClaims = async (
  redis: RedisClient,
  tag: string,
  claims: readonly ClaimedPurge[],
  retryAt: number,
) => {
  if (claims.length === 0) return;
  await redis.zadd(partitionKeys(tag).purgesClaimed, 'XX', ...claims.flatMap((c) => [retryAt, c.claim]));
};

type Backlog = Readonly<{ keys: number; oldest: number | null }>;

/** One partition's backlog (one pipeline: its keys share a Cluster slot). */
const backlogOf = async (redis: RedisClient, tag: string): Promise<Backlog> => {
  const keys = partitionKeys(tag);
  const replies = await redis
    .pipeline()
    .zcard(keys.purges)
    .zrange(keys.purges, 0, 0, 'WITHSCORES')
    .zrange(keys.purgesClaimed, 0, -1)
    .exec();
  const [queued, first, claimed] = (replies ?? []).map(([error, value]) => {
    if (error) throw error;
    return value;
  }) as [number, string[], string[]];
  const since = [
    ...(first[1] === undefined ? [] : [Number(first[1])]),
    ...claimed.map((c) => parseClaim(c).since),
  ];
  return { keys: queued + claimed.length, oldest: since.length === 0 ? null : Math.min(...since) };
};

/** How many purges `tags` hold (queued or claimed) and when the oldest was queued (ms; null: none). */
export const purgeBacklog = async (redis: RedisClient, tags: readonly string[]): Promise<Backlog> => {
  const each = await Promise.all(tags.map((tag) => backlogOf(redis, tag)));
  const oldest = each.flatMap((b) => (b.oldest === null ? [] : [b.oldest]));
  return {
    keys: each.reduce((sum, b) => sum + b.keys, 0),
    oldest: oldest.length === 0 ? null : Math.min(...oldest),
  };
};
