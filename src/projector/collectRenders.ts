// Decides which pages to render and how much of each: pages marked by batches, and on a clock
// tick the pages whose maintenances or availability the clock moved (the `due` set).
// Nothing else a page stores moves with the clock: what does is assembled when read.
import type { RedisClient } from '../store/redisClient.ts';
import { formatItemOfPage, formatMonitorOfPage } from '../../projections/store/control/codec.ts';
import { renderQueueRead, type RenderQueue } from '../store/control/reads.ts';
import type { RenderSet } from '../../projections/store/control/writes.ts';
import { runRead } from '../store/reads.ts';
import type { PageRender } from './renderPages.ts';

type Mutable = {
  incidents: boolean;
  incidentIds: Set<string>;
  maintenances: boolean;
  /** null: the maintenance lists are not rendered (else these changed, and the clock's are looked for). */
  maintenanceIds: Set<string> | null;
  availability: Set<number> | 'all';
  clear: [RenderSet, string][];
};

/** The renders a queue asks for (pure). */
export const rendersOf = (queue: RenderQueue): PageRender[] => {
  const pages = new Map<string, Mutable>();
  const page = (slug: string) => {
    const found = pages.get(slug) ?? {
      incidents: false,
      incidentIds: new Set<string>(),
      maintenances: false,
      maintenanceIds: null,
      availability: new Set<number>(),
      clear: [],
    };
    pages.set(slug, found);
    return found;
  };
  for (const slug of queue.dirty) page(slug);
  for (const slug of queue.dirty) page(slug).clear.push(['dirty', slug]);
  for (const slug of queue.incidents)
    Object.assign(page(slug), { incidents: true }).clear.push(['dirtyIncidents', slug]);
  for (const item of queue.incidentDocs ?? []) {
    const target = page(item.slug);
    target.incidentIds.add(item.id);
    target.clear.push(['dirtyIncidentDocs', formatItemOfPage(item)]);
  }
  for (const slug of queue.maintenances)
    Object.assign(page(slug), { maintenances: true }).clear.push(['dirtyMaintenances', slug]);
  for (const item of queue.maintenanceDocs ?? []) {
    const target = page(item.slug);
    (target.maintenanceIds ??= new Set()).add(item.id);
    target.clear.push(['dirtyMaintenanceDocs', formatItemOfPage(item)]);
  }
  for (const member of queue.availability) {
    const target = page(member.slug);
    if (target.availability !== 'all') target.availability.add(member.monitorId);
    target.clear.push(['dirtyAvailability', formatMonitorOfPage(member)]);
  }
  for (const slug of queue.due) {
    const target = page(slug);
    target.maintenanceIds ??= new Set();
    target.availability = 'all';
  }
  return [...pages].map(([slug, p]) => ({
    slug,
    scope: {
      incidents: p.incidents,
      // Only when the whole lists are not rendered anyway (undefined otherwise).
      ...(!p.incidents && p.incidentIds.size > 0 ? { incidentIds: p.incidentIds } : {}),
      maintenances: p.maintenances,
      ...(!p.maintenances && p.maintenanceIds !== null ? { maintenanceIds: p.maintenanceIds } : {}),
      availability: p.availability,
    },
    clear: p.clear,
  }));
};

export const collectRenders = async (
  redis: RedisClient,
  tag: string,
  options: { tick: boolean; now: number },
): Promise<PageRender[]> => rendersOf(await runRead(redis, renderQueueRead(tag, options)));
