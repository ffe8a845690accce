// Which keys a live render commit makes stale at the edge. Only renders that consumed a render
// mark are purged: those come from events. The clock's own renders (the minute tick, due
// maintenance and availability changes) are covered by the edge lifetime instead (edgeHeaders.ts).
import type { EdgePurger } from '../edge/edgePurger.ts';
import { checksKey, pageKey } from '../edge/surrogateKeys.ts';
import type { PageRender } from './renderPages.ts';

const marked = (render: PageRender, set: string): boolean => render.clear.some(([s]) => s === set);

type RenderPurge = Readonly<{ soft: string[]; hard: string[] }>;

/**
 * The keys to purge: `page-{slug}` when an incident, maintenance or page event changed the page,
 * else (checks and monitor events only) `page-{slug}-checks`. A page event marks both incidents and
 * maintenances; it may have made the page private, blocked or deleted, so it is a hard purge:
 * grace must never serve what the page no longer shows to everyone.
 */
export const purgeKeysOf = (renders: readonly PageRender[]): RenderPurge => {
  const out = { soft: [] as string[], hard: [] as string[] };
  for (const render of renders) {
    if (render.clear.length === 0) continue;
    const incidents = marked(render, 'dirtyIncidents');
    const maintenances = marked(render, 'dirtyMaintenances');
    // An incident or maintenance event marks only its item (dirty*Docs); its lists change all the same.
    const item = marked(render, 'dirtyIncidentDocs') || marked(render, 'dirtyMaintenanceDocs');
    if (incidents && maintenances) out.hard.push(pageKey(render.slug));
    else if (incidents || maintenances || item) out.soft.push(pageKey(render.slug));
    else out.soft.push(checksKey(render.slug));
  }
  return out;
};

/** Queues the purges of a live render commit. */
export const purgeRenders = (edge: Pick<EdgePurger, 'purge'>, renders: readonly PageRender[]): void => {
  const { soft, hard } = purgeKeysOf(renders);
  edge.purge(hard, true);
  edge.purge(soft);
};

/** Queues the purges of a live batch's checks: what they moved is assembled when read. */
export const purgeChecked = (edge: Pick<EdgePurger, 'purge'>, slugs: ReadonlySet<string>): void =>
  edge.purge([...slugs].map(checksKey));
