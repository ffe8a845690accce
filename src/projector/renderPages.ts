// Renders pages of one partition: load their documents and aggregates (I/O), render them (pure),
// and commit the outputs under the checkpoint the render read them at: if the partition moved on
// meanwhile, the newer runner renders instead.
import type { Redis } from 'ioredis';
import type { MonitorConfig, PageState, UrlSettings } from '../../projections/types.ts';
import { accessKey } from '../models/access/keys.ts';
import { checkpointRead } from '../models/control/reads.ts';
import { clearRenderMark, scheduleDue, type RenderSet } from '../models/control/writes.ts';
import { maintenanceMonthsRead } from '../models/lists/reads.ts';
import { pageKeyPattern, type PageRef } from '../models/page.ts';
import { keptOnDeletion, pageStateRead } from '../models/pageState/reads.ts';
import { commitWrites } from '../models/control/commitWrites.ts';
import { listRead, readAll, runRead, tupleRead } from '../models/redis/reads.ts';
import { scanKeys } from '../models/redis/scanKeys.ts';
import type { WriteOp } from '../models/redis/writeOps.ts';
import { monitorSnapshotRead } from './monitorSnapshotRead.ts';
import { renderPage, type RenderScope } from './renderPage.ts';

export type PageRender = Readonly<{
  slug: string;
  scope: RenderScope;
  /** The render marks this render consumes. */
  clear: readonly (readonly [set: RenderSet, member: string])[];
}>;

const byId = (a: MonitorConfig, b: MonitorConfig) => a.id - b.id;
const isGone = (state: PageState | null) => state === null || state.deleted;

/** A deleted page's keys but its document and access (which says it is deleted). */
const staleKeys = async (redis: Redis, page: PageRef): Promise<string[]> => {
  const keep = new Set([accessKey(page), ...keptOnDeletion(page)]);
  return (await scanKeys(redis, pageKeyPattern(page))).filter((key) => !keep.has(key));
};

/** Renders `pages` at `now` and commits them with `extra`; returns false when fenced (the checkpoint moved). */
export const renderPages = async (
  redis: Redis,
  tag: string,
  pages: readonly PageRender[],
  now: number,
  urls: UrlSettings,
  extra: readonly WriteOp[] = [],
): Promise<boolean> => {
  if (pages.length === 0 && extra.length === 0) return true;
  const refs = pages.map(({ slug }) => ({ tag, slug }));
  const [checkpoint, loaded] = await readAll(redis, [
    checkpointRead(tag),
    listRead(refs.map((page) => tupleRead([pageStateRead(page), maintenanceMonthsRead(page)]))),
  ]);
  if (checkpoint === null) return false;
  const writes: WriteOp[] = [];
  for (const [i, render] of pages.entries()) {
    const page = refs[i]!;
    const [state, maintenanceMonths] = loaded[i]!;
    const configs = state && !state.deleted ? Object.values(state.monitors).sort(byId) : [];
    const monitors = await runRead(redis, listRead(configs.map((c) => monitorSnapshotRead(tag, c, now))));
    const deleted = isGone(state);
    const plan = renderPage(
      {
        page,
        state,
        monitors,
        maintenanceMonths,
        staleKeys: deleted ? await staleKeys(redis, page) : [],
        now,
        urls,
      },
      render.scope,
    );
    writes.push(...plan.writes);
    // A partial render only knows the clock changes of what it rendered: it may bring the due
    // time forward but never push back one that a skipped part still needs.
    const full = deleted || (render.scope.maintenances && render.scope.availability === 'all');
    const due = scheduleDue(tag, render.slug, plan.due, full ? 'exact' : 'earlier');
    if (due !== null) writes.push(due);
    for (const [set, member] of render.clear) writes.push(clearRenderMark(tag, set, member));
  }
  writes.push(...extra);
  const fence = { tag, expected: checkpoint, next: null };
  return commitWrites(redis, fence, writes);
};
