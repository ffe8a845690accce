// Typed reads of one page's rendered outputs (docs/read-models.md). Each is ONE round trip that
// also fetches the page's access document, so a route decides 404/401/403 and answers together.
import type { ChainableCommander, Redis } from 'ioredis';
import { fromBytes, type StoredBody } from './bytes.ts';
import type { pageKeys } from './keys.ts';
import { defineListScript } from './listScript.ts';
import { parseAccess, type PageAccess } from './pageAccess.ts';

export type PageKeys = ReturnType<typeof pageKeys>;
export type BytesModel = 'charts' | 'minute' | 'snippets';
/** A slice of a sorted list, as ZRANGE indices (stop −1: to the end). */
export type ListSlice = Readonly<{ zset: string; docs: string; start: number; stop: number }>;

export type ListRead = Readonly<{ access: PageAccess | null; total: number; docs: string[] }>;
export type AvailabilityRead = Readonly<{
  access: PageAccess | null;
  monitorExists: boolean;
  stored: StoredBody | null;
}>;
export type EmbedRead = Readonly<{ access: PageAccess | null; fields: Readonly<Record<string, string>> }>;

const results = async (pipeline: ChainableCommander): Promise<unknown[]> =>
  ((await pipeline.exec()) ?? []).map(([err, value]) => {
    if (err) throw err;
    return value;
  });

const asString = (value: unknown): string | null => (typeof value === 'string' ? value : null);
// Redis takes 64-bit indices; beyond 2^53 every index is past the end anyway.
const index = (n: number): string => String(Math.min(n, Number.MAX_SAFE_INTEGER));

export const createPageReads = (redis: Redis) => {
  defineListScript(redis);
  return {
    access: async (keys: PageKeys): Promise<PageAccess | null> => parseAccess(await redis.get(keys.access)),

    /** A whole stored response (charts, minute-data, snippets). */
    bytes: async (keys: PageKeys, model: BytesModel) => {
      const [access, stored] = await redis.mget(keys.access, keys[model]);
      return { access: parseAccess(access), stored: fromBytes(stored) };
    },

    /** The badge's overall status. */
    overall: async (keys: PageKeys) => {
      const [access, overall] = await redis.mget(keys.access, keys.overall);
      return { access: parseAccess(access), overall: overall ?? null };
    },

    /** One month's stored daily counts (null: none stored); `month` null reads access only. */
    dailyCounts: async (keys: PageKeys, countsKey: string, month: string | null) => {
      const pipeline = redis.pipeline().get(keys.access);
      if (month !== null) pipeline.hget(countsKey, month);
      const [access, stored] = await results(pipeline);
      return { access: parseAccess(asString(access)), stored: fromBytes(asString(stored)) };
    },

    /** `monitorId` null reads access only, `period` null skips the body (but not the monitor's existence). */
    availability: async (
      keys: PageKeys,
      monitorId: number | null,
      period: string | null,
    ): Promise<AvailabilityRead> => {
      const pipeline = redis.pipeline().get(keys.access);
      if (monitorId !== null) pipeline.exists(keys.availability(monitorId));
      if (monitorId !== null && period !== null) pipeline.hget(keys.availability(monitorId), period);
      const [access, exists, stored] = await results(pipeline);
      return {
        access: parseAccess(asString(access)),
        monitorExists: exists === 1,
        stored: fromBytes(asString(stored)),
      };
    },

    embed: async (keys: PageKeys): Promise<EmbedRead> => {
      const [access, fields] = await results(redis.pipeline().get(keys.access).hgetall(keys.embed));
      return { access: parseAccess(asString(access)), fields: (fields ?? {}) as Record<string, string> };
    },

    /** A slice of a list with its documents in list order; `slice` null reads access only. */
    list: async (keys: PageKeys, slice: ListSlice | null): Promise<ListRead> => {
      const range =
        slice === null ? [] : [index(slice.start), slice.stop < 0 ? String(slice.stop) : index(slice.stop)];
      const [access, total, ...docs] = await redis.apiPageList(
        keys.access,
        slice?.zset ?? keys.access,
        slice?.docs ?? keys.access,
        ...range,
      );
      return {
        access: parseAccess(asString(access)),
        total: typeof total === 'number' ? total : 0,
        // A doc missing beside its id would be a projector bug; skip it rather than send null.
        docs: docs.filter((doc): doc is string => typeof doc === 'string'),
      };
    },
  };
};

export type PageReads = ReturnType<typeof createPageReads>;
