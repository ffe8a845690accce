// The instant an answer assembled from the series is computed for (charts' `timestamp`): the start
// of the current minute, or the page's latest projected event when that is later. It depends on
// the store and the minute only, so every API process answers the same bytes and ETag for the same
// models in the same minute; and an answer never counts an event dated after the instant it names
// (ingest admits checks dated up to five minutes ahead of the clock: such a page is answered at
// that check's time).
import { MINUTE_MS, floorTo } from '../shared/time.ts';

export const assemblyInstant = (clockNow: number, updatedAt: number | null): number =>
  Math.max(floorTo(clockNow, MINUTE_MS), updatedAt ?? Number.NEGATIVE_INFINITY);
