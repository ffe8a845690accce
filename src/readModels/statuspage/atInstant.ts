// The Statuspage documents rendered at read time, for a page whose render is pending: its batches
// committed, the render that stores the documents not yet. Everything comes from one atomic read
// (readAtInstant), so the components, the indicator and `updated_at` show one log position.
import type { PageAccess } from '../../../projections/access/codec.ts';
import { pageOverall } from '../../../projections/pageRender/pageOverall.ts';
import { pageUrl } from '../../../projections/render/pageUrl.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { renderStatuspage, type StatuspageDocument } from '../../../projections/statuspage/documents.ts';
import type { UrlSettings } from '../../../projections/types.ts';
import type { RedisClient } from '../../store/redisClient.ts';
import { updatedIso } from '../fillUpdated.ts';
import { accessOf, documentOf, documentsRead } from '../series/pendingRender.ts';
import { readAtInstant } from '../series/pageSeriesRead.ts';

type RenderedAtInstant = Readonly<{
  access: PageAccess | null;
  documents: Readonly<Record<StatuspageDocument, string>>;
  /** The page's latest event of the same read, for the documents' slots. */
  updated: string;
}>;

/** The documents at the page's assembly instant; null for a page without a live document. */
export const statuspageAtInstant = async (
  redis: RedisClient,
  urls: UrlSettings,
  page: PageRef,
  clockNow: number,
): Promise<RenderedAtInstant | null> => {
  const read = await readAtInstant(redis, page, { clockNow, series: true, rest: documentsRead(page, true) });
  const state = documentOf(read.core, read.rest);
  if (state === null || read.monitors === null) return null;
  const documents = renderStatuspage({
    slug: page.slug,
    title: state.settings.title,
    pageUrl: pageUrl(state.settings, urls),
    overall: pageOverall(state, read.monitors, read.instant),
    monitors: read.monitors,
    incidents: Object.values(state.incidents),
    maintenances: Object.values(state.maintenances),
    nowMs: read.instant,
  });
  return { access: accessOf(state), documents, updated: updatedIso(read.updatedAt) };
};
