// Which keys a live render commit makes stale at the edge. Only renders that consumed a render
// mark are purged: those come from events. The clock's own renders (the minute tick, due
// maintenance and availability changes) are covered by the edge lifetime instead (edgeHeaders.ts).
import type { PageRender } from '../projector/renderPages.ts';
import { checksKey, pageKey } from './surrogateKeys.ts';

// Incident, maintenance and page events mark these; checks and monitor events never do.
const touchesWholePage = (render: PageRender): boolean =>
  render.clear.some(([set]) => set === 'dirtyIncidents' || set === 'dirtyMaintenances');

export const purgeKeysOf = (renders: readonly PageRender[]): string[] =>
  renders.flatMap((render) =>
    render.clear.length === 0
      ? []
      : [touchesWholePage(render) ? pageKey(render.slug) : checksKey(render.slug)],
  );
