// How many items the Statuspage lists and the feeds show, and the read of every item tied with
// the last one shown: a render reads those it can show, ties included, not a page's history.
import { known, zsetByScore, type Read, type Scored } from '../store/reads.ts';

/** The Statuspage lists and the feeds show at most this many items. */
export const SHOWN_ITEMS = 50;

/** Every member scored like the last of a full top list (ties at the last place), else nothing. */
export const tiesRead = (key: string, top: readonly Scored[]): Read<string[]> => {
  const last = top.length === SHOWN_ITEMS ? top[top.length - 1] : undefined;
  return last ? zsetByScore(key, Number(last[1]), Number(last[1])) : known([]);
};
