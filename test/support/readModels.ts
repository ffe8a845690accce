// Reading rendered outputs and dumping whole versions, for assertions.
import type { RedisClient } from '../../src/store/redisClient.ts';
import { scanKeys } from '../../src/store/scanKeys.ts';
import { decodeAvailability } from '../../projections/availability/codec.ts';
import { pageKeys } from './pageKeys.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import type { ProjectorEnv } from './projectorEnv.ts';
import { URLS } from './testUrls.ts';
import { createPageReads } from '../../src/readModels/pageReads.ts';
import { assembleChart, type ChartModel } from '../../src/readModels/charts/routes.ts';

export const keysOf = async (env: ProjectorEnv, slug: string) =>
  pageKeys(await env.tagOf(partitionOf(slug, env.partitions)), slug);

/** The charts or minute-data answer as the API assembles it in the env's minute (at its instant). */
export const assembledJson = async (env: ProjectorEnv, slug: string, model: ChartModel) => {
  const page = { tag: await env.tagOf(partitionOf(slug, env.partitions)), slug };
  const body = assembleChart(model, await createPageReads(env.redis, URLS).series(page, env.now().getTime()));
  return JSON.parse(body!) as Record<string, unknown>;
};

export const availabilityJson = async (
  env: ProjectorEnv,
  slug: string,
  monitorId: number,
  period: string,
) => {
  const keys = await keysOf(env, slug);
  const stored = decodeAvailability(await env.redis.hgetBuffer(keys.availability(monitorId), period));
  return JSON.parse(stored!.body.toString('utf8')) as Record<string, unknown>;
};

const RENDERED =
  /:(embed|snippets|overall(:span)?|access|feeds|sp|avail:\d+|sla(:\d{4})?|tick|dirty(:\w+)?)$/;
// When the clock next changes a page is scheduling state: a partial render may leave an earlier
// (conservative) time than a full one would compute, so it is never compared. Nor are the embed's
// revisions: they count changes as they happened, which a rebuild cannot repeat. Nor is the purge
// outbox: edge purges waiting to be sent, not an answer.
const SCHEDULING = /:due$|:purge(:claimed)?$/;
const REVISION = /(^|:)rev$/;

/**
 * Every key of a version with its value, the version number replaced by V. With
 * `aggregatesOnly`, outputs rendered from the wall clock are left out (processes that render at
 * different instants still agree on everything else).
 */
export const dumpVersion = async (
  redis: RedisClient,
  prefix: string,
  version: number,
  aggregatesOnly = false,
) => {
  const found = await scanKeys(redis, `${prefix}:{v${version}.p*`);
  const dump = new Map<string, unknown>();
  for (const key of found.sort()) {
    if (SCHEDULING.test(key)) continue;
    if (aggregatesOnly && (RENDERED.test(key) || key.includes(':mnt:') || key.includes(':inc:'))) continue;
    const type = await redis.type(key);
    const value =
      type === 'string'
        ? await redis.get(key)
        : type === 'hash'
          ? Object.fromEntries(
              Object.entries(await redis.hgetall(key))
                .filter(([field]) => !REVISION.test(field))
                .sort(),
            )
          : type === 'zset'
            ? await redis.zrange(key, 0, -1, 'WITHSCORES')
            : type === 'set'
              ? (await redis.smembers(key)).sort()
              : type;
    dump.set(key.replace(`{v${version}.`, '{vV.'), value);
  }
  return dump;
};
