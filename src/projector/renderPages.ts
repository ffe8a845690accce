// Renders pages of one partition and writes the outputs under the checkpoint the render read
// them at: if the partition moved on meanwhile, the newer runner renders instead.
import type { Redis } from 'ioredis';
import type { MonitorConfig, PageState, UrlSettings } from '../../projections/types.ts';
import { pageKeys, partitionKeys } from '../readModels/keys.ts';
import { commandList, encodeCommands } from './commands.ts';
import { loadSnapshots } from './loadSnapshots.ts';
import { renderPage, type RenderScope } from './renderPage.ts';
import { commitIfCheckpoint } from './scripts.ts';

export type PageRender = Readonly<{
  slug: string;
  scope: RenderScope;
  clear: readonly [set: string, member: string][];
}>;

const byId = (a: MonitorConfig, b: MonitorConfig) => a.id - b.id;

const scanPageKeys = async (redis: Redis, pattern: string): Promise<string[]> => {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
};

/** Renders `pages` at `now`; returns false when fenced (the checkpoint moved). */
export const renderPages = async (
  redis: Redis,
  tag: string,
  pages: readonly PageRender[],
  now: number,
  urls: UrlSettings,
  extra: readonly (readonly (string | number)[])[] = [],
): Promise<boolean> => {
  if (pages.length === 0 && extra.length === 0) return true;
  const pk = partitionKeys(tag);
  const pipeline = redis.pipeline().get(pk.checkpoint);
  for (const { slug } of pages) {
    const keys = pageKeys(tag, slug);
    pipeline.get(keys.state).get(keys.updated).smembers(keys.maintenanceMonths);
  }
  const results = (await pipeline.exec()) ?? [];
  const checkpoint = results[0]?.[1] as string | null;
  if (checkpoint === null) return false;
  const out = commandList();
  for (const [i, page] of pages.entries()) {
    const raw = results[1 + i * 3]?.[1] as string | null;
    const state = raw ? (JSON.parse(raw) as PageState) : null;
    const updated = Number(results[2 + i * 3]?.[1] ?? 0);
    const configs = state && !state.deleted ? Object.values(state.monitors).sort(byId) : [];
    const monitors = await loadSnapshots(redis, tag, configs, now);
    const deleted = state === null || state.deleted;
    const due = renderPage(
      out,
      {
        tag,
        slug: page.slug,
        state,
        updatedAt: Math.max(updated, state?.updatedAt ?? 0) || null,
        monitors,
        maintenanceMonths: (results[3 + i * 3]?.[1] ?? []) as string[],
        existingKeys: deleted ? await scanPageKeys(redis, pageKeys(tag, page.slug).pattern) : [],
        now,
        urls,
      },
      page.scope,
    );
    // A partial render only knows the clock changes of what it rendered: it may bring the due
    // time forward (LT) but never push back one that a skipped part still needs.
    const full = deleted || (page.scope.maintenances && page.scope.availability === 'all');
    if (full && due === null) out.push('ZREM', pk.due, page.slug);
    else if (full) out.push('ZADD', pk.due, due!, page.slug);
    else if (due !== null) out.push('ZADD', pk.due, 'LT', due, page.slug);
    for (const [set, member] of page.clear) out.push('SREM', set, member);
  }
  for (const command of extra) out.push(...command);
  return commitIfCheckpoint(redis, pk.checkpoint, checkpoint, '', encodeCommands(out.commands));
};
