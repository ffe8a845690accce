// When a day's uptime_percentage in daily_breakdown changes by the clock alone: the first and
// last days of a period are partial, so their length moves with now while their downtime stays put.
// The value is round(100000 × (L − D) ÷ L) for part length L and downtime D (ms, both integers).
import { uptimeThousandths } from './percent.ts';

/** The smallest part length > `partMs` whose rounded value differs; Infinity when never. */
export const growingChange = (downMs: number, partMs: number): number => {
  if (downMs <= 0) return Infinity;
  const at = (length: number) => uptimeThousandths(length - downMs, length);
  const r = at(partMs);
  if (r >= 100_000) return Infinity; // v stays below 100000 and already rounds to it
  // v(L) = 100000 (1 − D/L) rises with L; it rounds past r once v ≥ r + 0.5.
  let length = Math.max(partMs + 1, Math.ceil((100_000 * downMs) / (99_999.5 - r)));
  while (length > partMs + 1 && at(length - 1) !== r) length--; // float slack of the estimate
  while (at(length) === r) length++;
  return length;
};

/** The largest part length < `partMs` whose rounded value differs; null when never. */
export const shrinkingChange = (downMs: number, partMs: number): number | null => {
  if (downMs <= 0) return null;
  const at = (length: number) => uptimeThousandths(length - downMs, length);
  const r = at(partMs);
  if (r === 0) return null;
  // v(L) falls with L; it rounds below r once v < r − 0.5.
  let length = Math.min(partMs - 1, Math.ceil((100_000 * downMs) / (100_000.5 - r)) - 1);
  while (length < partMs - 1 && at(length + 1) !== r) length++;
  while (length > downMs && at(length) === r) length--;
  return at(length) === r ? null : length;
};
