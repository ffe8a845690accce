// The API process's cache of what routes read from Redis, per page and variant, kept fresh by the
// projector's announcements (docs/architecture.md, "The read path": "Freshness").
import { LRUCache } from 'lru-cache';
import { changesPattern } from '../../projections/store/control/keys.ts';
import { parsePageChange } from '../../projections/store/changes.ts';
import type { PageRef } from '../../projections/store/page.ts';
import type { Subscriber } from '../store/subscriber.ts';

type ReadCacheOptions = Readonly<{ ttlMs: number; maxBytes: number }>;

/** `long`: kept past the cache's TTL (a variant made for its minute). */
type Entry = Readonly<{ value: unknown; bytes: number; stale?: true; long?: true }>;
type Fill = Readonly<{ page: string; promise: Promise<unknown> }>;
/** Where an entry is kept: its page (what an announcement marks stale) and its own key. */
type Slot = Readonly<{ page: string; key: string }>;

/**
 * How to make an entry the cache does not hold: `load` reads it, `bytes` sizes it for the LRU
 * bound, `ttlMs` (default: the cache's) is for variants whose key names the minute they are made
 * for (the SLA reports' current periods).
 */
export type EntrySource<T> = Readonly<{
  load: () => Promise<T>;
  bytes: (value: T) => number;
  ttlMs?: number;
}>;

// What an entry costs beyond its body and key: access document, headers, LRU node (an estimate).
const ENTRY_OVERHEAD = 1024;
const CHANNEL_SUFFIX = ':changes';

const pageKeyOf = (tag: string, slug: string): string => `${tag}\n${slug}`;

export const createReadCache = (subscriber: Subscriber, prefix: string, options: ReadCacheOptions) => {
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry) => entry.bytes,
    ttl: options.ttlMs,
    dispose: (_entry, key, reason) => {
      if (reason === 'set') return; // replaced (marked stale, or refreshed): still the page's key
      const page = key.slice(0, key.lastIndexOf('\n'));
      const keys = byPage.get(page);
      keys?.delete(key);
      if (keys?.size === 0) byPage.delete(page);
    },
  });
  const byPage = new Map<string, Set<string>>();
  // The entry key of every value kept, so a whole answer made from it can ask whether it is current.
  const keyOfValue = new WeakMap<object, string>();
  const fills = new Map<string, Fill>();
  // Invalidation sequence numbers per page since the last sweep, and those of the sweep before: a
  // fill is judged on both, so one that spans a sweep is still kept (and its answer settled at the
  // edge); one that spans two sweeps, or a drop of everything (`generation`), is not.
  let invalidated = new Map<string, number>();
  let previous = new Map<string, number>();
  let seq = 0;
  let epoch = 0;
  let generation = 0;
  const stats = { hits: 0, stale: 0, misses: 0, bypassed: 0, invalidations: 0 };

  const dropAll = () => {
    generation += 1;
    entries.clear();
    byPage.clear();
    fills.clear();
    invalidated = new Map();
    previous = new Map();
  };

  /** `drop`: the page's settings changed, so no entry may answer again, not even once while refreshing. */
  const invalidate = (page: string, drop: boolean) => {
    stats.invalidations += 1;
    seq += 1;
    invalidated.set(page, seq);
    for (const [key, fill] of fills) if (fill.page === page) fills.delete(key);
    for (const key of [...(byPage.get(page) ?? [])]) {
      const entry = entries.peek(key);
      if (entry === undefined || (entry.stale && !drop)) continue;
      // A stale answer is never older than the TTL: one kept longer may be a minute behind the log.
      if (drop || entry.long) entries.delete(key);
      else entries.set(key, { ...entry, stale: true }, { noUpdateTTL: true }); // still dies at its TTL
    }
  };

  subscriber.psubscribe(changesPattern(prefix), (channel, message) => {
    if (!channel.endsWith(CHANNEL_SUFFIX)) return;
    const change = parsePageChange(message);
    invalidate(pageKeyOf(channel.slice(0, -CHANNEL_SUFFIX.length), change.slug), change.settings);
  });
  subscriber.onDown(dropAll);
  subscriber.onLive(dropAll);
  const sweep = setInterval(() => {
    epoch += 1;
    previous = invalidated;
    invalidated = new Map();
  }, options.ttlMs);
  sweep.unref();

  const store = ({ page, key }: Slot, value: unknown, bytes: number, ttl: number) => {
    const entry = { value, bytes: bytes + ENTRY_OVERHEAD + 2 * key.length }; // key: UTF-16
    entries.set(key, ttl > options.ttlMs ? { ...entry, long: true } : entry, { ttl });
    if (typeof value === 'object' && value !== null) keyOfValue.set(value, key);
    let keys = byPage.get(page);
    if (keys === undefined) byPage.set(page, (keys = new Set()));
    keys.add(key);
  };

  /** One Redis read of an entry, shared by every request for it; kept when still fresh. */
  const fill = <T>(slot: Slot, { load, bytes, ttlMs = options.ttlMs }: EntrySource<T>) => {
    const { page: pageKey, key } = slot;
    const startSeq = seq;
    const startEpoch = epoch;
    const startGeneration = generation;
    const promise = load().then(
      (value) => {
        if (fills.get(key)?.promise === promise) fills.delete(key);
        const untouched = (since: Map<string, number>) => (since.get(pageKey) ?? -1) <= startSeq;
        const fresh =
          subscriber.live() &&
          generation === startGeneration &&
          untouched(invalidated) &&
          (epoch === startEpoch || (epoch === startEpoch + 1 && untouched(previous)));
        if (fresh) store(slot, value, bytes(value), ttlMs);
        return value;
      },
      (error: unknown) => {
        if (fills.get(key)?.promise === promise) fills.delete(key);
        throw error;
      },
    );
    fills.set(key, { page: pageKey, promise });
    return promise;
  };

  const isCurrentValue = (value: object): boolean => {
    const key = keyOfValue.get(value);
    if (key === undefined) return false;
    const entry = entries.get(key);
    return entry?.value === value && entry.stale !== true;
  };

  return {
    /**
     * The cached value of `variant` of `page`, or the one `source.load()` reads (kept when still
     * fresh). A rejected load is never kept.
     */
    get: <T>(page: PageRef, variant: string, source: EntrySource<T>): Promise<T> => {
      if (!subscriber.live()) {
        stats.bypassed += 1;
        return source.load();
      }
      const pageKey = pageKeyOf(page.tag, page.slug);
      const key = `${pageKey}\n${variant}`;
      const slot = { page: pageKey, key };
      const hit = entries.get(key);
      if (hit !== undefined && !hit.stale) {
        stats.hits += 1;
        return Promise.resolve(hit.value as T);
      }
      const pending = fills.get(key);
      if (hit !== undefined) {
        // Stale: answer with it; one read refreshes it (the entry goes if that read fails).
        stats.stale += 1;
        if (pending === undefined)
          fill(slot, source).catch(() => {
            if (entries.peek(key) === hit) entries.delete(key);
          });
        return Promise.resolve(hit.value as T);
      }
      if (pending !== undefined) {
        stats.hits += 1;
        return pending.promise as Promise<T>;
      }
      stats.misses += 1;
      return fill(slot, source);
    },
    /**
     * Whether `value` is what the cache holds now for its entry: false once the entry was marked
     * stale or dropped (an announcement, the TTL, eviction) or the subscriber is away, and for
     * values never kept.
     */
    isCurrent: (value: object): boolean => subscriber.live() && isCurrentValue(value),
    /** Whether a value the routes got is no older than every change the process heard of. */
    isSettled: (value: object): boolean => !subscriber.live() || isCurrentValue(value),
    /** Hits, stale answers, misses, reads that bypassed the cache (subscriber down) and page invalidations so far. */
    stats: () => ({ ...stats, entries: entries.size, bytes: entries.calculatedSize }),
    close: (): void => {
      clearInterval(sweep);
      dropAll();
    },
  };
};

export type ReadCache = ReturnType<typeof createReadCache>;

/** What the routes use: the cache, or `uncached` (an app built without a shared subscriber). */
export type CachedReads = Pick<ReadCache, 'get' | 'isSettled'>;

export const uncached: CachedReads = { get: (_page, _variant, { load }) => load(), isSettled: () => true };
