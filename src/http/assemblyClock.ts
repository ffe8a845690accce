// The instant an answer assembled from the series is computed for: the first request of its
// minute in this process, so refills within the minute give the same bytes and ETag.
import { LRUCache } from 'lru-cache';
import type { PageRef } from '../../projections/store/page.ts';
import type { Clock } from '../shared/clock.ts';
import { MINUTE_MS, floorTo } from '../shared/time.ts';

export type AssemblyClock = (page: PageRef, variant: string) => number;

export const createAssemblyClock = (clock: Clock, max = 100_000): AssemblyClock => {
  const first = new LRUCache<string, number>({ max });
  return (page, variant) => {
    const now = clock().getTime();
    const key = `${page.tag}\n${page.slug}\n${variant}\n${floorTo(now, MINUTE_MS)}`;
    const seen = first.get(key);
    if (seen !== undefined) return seen;
    first.set(key, now);
    return now;
  };
};
