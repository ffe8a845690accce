// Which keys a commit makes stale at the edge, queued in the partition's purge outbox with the
// commit's own writes (projections/store/control/purgeWrites.ts). Only renders that consumed a
// render mark are purged: those come from events. The clock's own renders (the minute tick, due
// maintenance and availability changes) are covered by the edge lifetime instead (edgeHeaders.ts);
// a rebuild's renders purge every page, once its version is active.
import { checksKey, pageKey } from '../edge/surrogateKeys.ts';
import { queuePurges, type PurgeKeys } from '../../projections/store/control/purgeWrites.ts';
import type { WriteOp } from '../../projections/store/writeOps.ts';
import type { PageState } from '../../projections/types.ts';

/** What a render (renderPages.ts's PageRender) tells of the marks it consumes. */
type MarkedRender = Readonly<{ slug: string; clear: readonly (readonly [set: string, member: string])[] }>;

const marked = (render: MarkedRender, set: string): boolean => render.clear.some(([s]) => s === set);

/** A page event marks both incidents and maintenances: the page may have turned private, blocked or deleted. */
export const rendersPageEvent = (render: MarkedRender): boolean =>
  marked(render, 'dirtyIncidents') && marked(render, 'dirtyMaintenances');

/**
 * The keys to purge: `page-{slug}` when an incident, maintenance or page event changed the page,
 * else (checks and monitor events only) `page-{slug}.checks`. A page event marks both incidents and
 * maintenances; it may have made the page private, blocked or deleted, so it is a hard purge:
 * grace must never serve what the page no longer shows to everyone.
 */
export const purgeKeysOf = (renders: readonly MarkedRender[]): { soft: string[]; hard: string[] } => {
  const out = { soft: [] as string[], hard: [] as string[] };
  for (const render of renders) {
    if (render.clear.length === 0) continue;
    const incidents = marked(render, 'dirtyIncidents');
    const maintenances = marked(render, 'dirtyMaintenances');
    // An incident or maintenance event marks only its item (dirty*Docs); its lists change all the same.
    const item = marked(render, 'dirtyIncidentDocs') || marked(render, 'dirtyMaintenanceDocs');
    if (rendersPageEvent(render)) out.hard.push(pageKey(render.slug));
    else if (incidents || maintenances || item) out.soft.push(pageKey(render.slug));
    else out.soft.push(checksKey(render.slug));
  }
  return out;
};

const isPublic = (state: PageState | null): boolean =>
  state !== null && !state.deleted && !state.settings.blocked && state.settings.tokenHash === null;

/** A rebuild's render of every page: each page key, hard where the page is not public (no grace for it). */
export const activationKeysOf = (pages: readonly (readonly [string, PageState | null])[]): PurgeKeys => {
  const keys = { hard: [] as string[], soft: [] as string[] };
  for (const [slug, state] of pages) keys[isPublic(state) ? 'soft' : 'hard'].push(pageKey(slug));
  return keys;
};

/** A batch's checks: what they moved is assembled when read (pages rendered right after purge with their render). */
export const checkedKeysOf = (checked: ReadonlySet<string>, urgent: ReadonlySet<string>): PurgeKeys => ({
  hard: [],
  soft: [...checked].filter((slug) => !urgent.has(slug)).map(checksKey),
});

/** How a commit queues its purges: set when an edge is purged (EDGE_PURGE). */
export type EdgePurgeQueue = Readonly<{
  /** Told after a commit queued purges in `tag`'s outbox (the drainer wakes). */
  queued?: (tag: string) => void;
}>;

/** The outbox writes of `keys`, none when the edge is not purged. */
export const purgeWrites = (tag: string, edge: EdgePurgeQueue | undefined, keys: PurgeKeys): WriteOp[] =>
  edge === undefined ? [] : queuePurges(tag, keys, Date.now());
