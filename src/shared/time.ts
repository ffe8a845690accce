// UTC helpers shared by the write side, the projections and the API.
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

// Renders format the same minutes and hours over and over (every chart point of every page), and
// Date#toISOString was a third of a page render: the strings are kept, a bounded number of them.
const FORMATTED_LIMIT = 10_000;
const formatted = new Map<number, string>();

/** ISO 8601 in UTC; whole seconds drop the ".000" (2026-11-22T10:00:00Z). */
export const formatTimestamp = (ms: number): string => {
  let text = formatted.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString().replace('.000Z', 'Z');
    if (formatted.size >= FORMATTED_LIMIT) formatted.clear();
    formatted.set(ms, text);
  }
  return text;
};

/** Normalises any ISO 8601 timestamp with Z or an offset to formatTimestamp's form. */
export const normalizeTimestamp = (iso: string): string => formatTimestamp(Date.parse(iso));

export const floorTo = (ms: number, unit: number): number => Math.floor(ms / unit) * unit;
