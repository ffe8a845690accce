// Decides which pages to render and how much of each: pages marked dirty by batches, and on a
// clock tick every page of the partition, fully where the clock moved a maintenance or an
// availability figure (the `due` set).
import type { Redis } from 'ioredis';
import { partitionKeys } from '../readModels/keys.ts';
import type { PageRender } from './renderPages.ts';

type Mutable = {
  incidents: boolean;
  maintenances: boolean;
  availability: Set<number> | 'all';
  clear: [string, string][];
};

export const collectRenders = async (
  redis: Redis,
  tag: string,
  options: { tick: boolean; now: number },
): Promise<PageRender[]> => {
  const pk = partitionKeys(tag);
  const [dirty, incidents, maintenances, availability, all, due] = (await redis
    .pipeline()
    .smembers(pk.dirty)
    .smembers(pk.dirtyIncidents)
    .smembers(pk.dirtyMaintenances)
    .smembers(pk.dirtyAvailability)
    .smembers(options.tick ? pk.pages : `${pk.pages}:none`)
    .zrangebyscore(pk.due, '-inf', options.tick ? options.now : '-inf')
    .exec())!.map(([, value]) => value as string[]);
  const pages = new Map<string, Mutable>();
  const page = (slug: string) => {
    const found = pages.get(slug) ?? {
      incidents: false,
      maintenances: false,
      availability: new Set<number>(),
      clear: [],
    };
    pages.set(slug, found);
    return found;
  };
  for (const slug of [...dirty!, ...all!]) page(slug);
  for (const slug of dirty!) page(slug).clear.push([pk.dirty, slug]);
  for (const slug of incidents!)
    Object.assign(page(slug), { incidents: true }).clear.push([pk.dirtyIncidents, slug]);
  for (const slug of maintenances!)
    Object.assign(page(slug), { maintenances: true }).clear.push([pk.dirtyMaintenances, slug]);
  for (const member of availability!) {
    const split = member.lastIndexOf('|');
    const target = page(member.slice(0, split));
    if (target.availability !== 'all') target.availability.add(Number(member.slice(split + 1)));
    target.clear.push([pk.dirtyAvailability, member]);
  }
  for (const slug of due!) Object.assign(page(slug), { maintenances: true, availability: 'all' as const });
  return [...pages].map(([slug, p]) => ({
    slug,
    scope: { incidents: p.incidents, maintenances: p.maintenances, availability: p.availability },
    clear: p.clear,
  }));
};
