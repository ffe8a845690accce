// Only what is news notifies: an event whose `at` lies within 15 minutes of its append. An
// import of old incidents, a backfill or a replay sends nothing.
import { NEWS_WINDOW_MS } from './planTypes.ts';

export const isNews = (atMs: number, recordedAtMs: number): boolean =>
  Math.abs(recordedAtMs - atMs) <= NEWS_WINDOW_MS;
