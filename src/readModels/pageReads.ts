// The API's reads of one page (docs/read-models.md). Each is ONE round trip that also fetches the
// page's access document, so a route decides 404/401/403 and answers together.
import type { RedisClient } from '../store/redisClient.ts';
import { accessRead } from './access/reads.ts';
import type { PageAccess } from '../../projections/access/codec.ts';
import { availabilityExistsRead, availabilityRead } from './availability/reads.ts';
import type { StoredBytes } from '../../projections/store/bytes.ts';
import type { EmbedParts } from '../../projections/embed/codec.ts';
import { embedRead, overallRead, storedOverallSpanRead, snippetsRead } from './embed/reads.ts';
import type { ListKeys } from '../../projections/lists/keys.ts';
import { dailyCountsRead, listPageRead, type ListPage, type ListSlice } from './lists/reads.ts';
import type { PageRef } from '../../projections/store/page.ts';
import { known, readAll, runRead, tupleRead } from '../store/reads.ts';
import { renderEmbedParts } from '../../projections/embed/embed.ts';
import { pageUrl } from '../../projections/render/pageUrl.ts';
import { accessOf, documentOf, documentsRead, renderPendingRead } from './series/pendingRender.ts';
import { pageOverall } from '../../projections/pageRender/pageOverall.ts';
import type { MonitorSnapshot, UrlSettings } from '../../projections/types.ts';
import { readAtInstant } from './series/pageSeriesRead.ts';
import { overallHoldsAt } from '../../projections/embed/overallSpan.ts';
import { assemblyInstant } from '../http/assemblyClock.ts';
import { updatedRead } from './pageState/reads.ts';

export type StoredRead = Readonly<{ access: PageAccess | null; stored: StoredBytes | null }>;

/** What a stored read weighs in the response cache: its body's bytes. */
export const storedSize = (read: StoredRead): number => read.stored?.body.length ?? 0;
type AvailabilityRead = StoredRead & Readonly<{ monitorExists: boolean }>;
/** `monitors` null: the page has no document (or is deleted); `overall` null: not rendered yet. */
export type SeriesRead = Readonly<{
  access: PageAccess | null;
  overall: string | null;
  monitors: MonitorSnapshot[] | null;
  /** The instant the series were read for (assemblyInstant). */
  instant: number;
}>;
type OverallRead = Readonly<{ access: PageAccess | null; overall: string | null }>;
type EmbedRead = Readonly<{
  access: PageAccess | null;
  parts: Partial<EmbedParts>;
  /** The page's latest event, checks included (the body's `updated`). */
  updatedAt: number | null;
  /** Only when asked for (rtm, upd): the monitors' series. */
  monitors: MonitorSnapshot[] | null;
  /** The instant the answer is assembled for (assemblyInstant). */
  instant: number;
}>;

export const createPageReads = (redis: RedisClient, urls: UrlSettings) => {
  /**
   * The page's monitors' series and overall status at its assembly instant (charts, minute
   * data), all from one log position: the overall as rendered while no render is pending and it
   * holds at that instant (no maintenance window boundary in between), else computed from the same
   * read as the monitors' states (with the access document).
   */
  const series = async (page: PageRef, clockNow: number): Promise<SeriesRead> => {
    const readAt = (documents: boolean) =>
      readAtInstant(redis, page, {
        clockNow,
        series: true,
        rest: tupleRead([
          accessRead(page),
          overallRead(page),
          renderPendingRead(page),
          storedOverallSpanRead(page),
          documents ? documentsRead(page, false) : known(null),
        ]),
      });
    let read = await readAt(false);
    if (read.rest[2] || !overallHoldsAt(read.rest[3], read.instant)) read = await readAt(true);
    const { instant, core, monitors, rest } = read;
    const [access, stored, , , documents] = rest;
    const state = documents === null ? null : documentOf(core, documents);
    if (state === null || monitors === null || stored === null)
      return { access, overall: stored, monitors, instant };
    return { access: accessOf(state), overall: pageOverall(state, monitors, instant), monitors, instant };
  };

  return {
    access: (page: PageRef): Promise<PageAccess | null> => runRead(redis, accessRead(page)),

    /** The stored snippets response. */
    snippets: async (page: PageRef): Promise<StoredRead> => {
      const [access, stored] = await readAll(redis, [accessRead(page), snippetsRead(page)]);
      return { access, stored };
    },

    series,

    /**
     * The badge's overall status at the page's assembly instant: as rendered, unless a render is
     * pending or a maintenance window boundary lies between the render and that instant (then as
     * charts computes it).
     */
    overall: async (page: PageRef, clockNow: number): Promise<OverallRead> => {
      const [access, overall, span, updated, pending] = await readAll(redis, [
        accessRead(page),
        overallRead(page),
        storedOverallSpanRead(page),
        updatedRead(page),
        renderPendingRead(page),
      ]);
      if (!pending && overallHoldsAt(span, assemblyInstant(clockNow, updated))) return { access, overall };
      const read = await series(page, clockNow);
      return { access: read.access, overall: read.overall };
    },

    /** One month's stored daily counts (null: none stored); `month` null reads access only. */
    dailyCounts: async (page: PageRef, keys: ListKeys, month: string | null): Promise<StoredRead> => {
      const counts = month === null ? known(null) : dailyCountsRead(keys, month);
      const [access, stored] = await readAll(redis, [accessRead(page), counts]);
      return { access, stored };
    },

    /** `monitorId` null reads access only, `period` null skips the body (but not the monitor's existence). */
    availability: async (
      page: PageRef,
      monitorId: number | null,
      period: string | null,
    ): Promise<AvailabilityRead> => {
      const [access, monitorExists, stored] = await readAll(redis, [
        accessRead(page),
        monitorId === null ? known(false) : availabilityExistsRead(page, monitorId),
        monitorId === null || period === null ? known(null) : availabilityRead(page, monitorId, period),
      ]);
      return { access, monitorExists, stored };
    },

    /**
     * The stored embed parts and the page's latest event; with `series`, the monitors' series at
     * the page's assembly instant too (rtm, upd). One log position: while a render is pending, or
     * when a maintenance window boundary lies between the render and the instant, the parts are
     * computed from the same read as the series (readAtInstant).
     */
    embed: async (page: PageRef, clockNow: number, series: boolean): Promise<EmbedRead> => {
      const stored = await readAtInstant(redis, page, {
        clockNow,
        series,
        rest: tupleRead([
          accessRead(page),
          embedRead(page),
          renderPendingRead(page),
          storedOverallSpanRead(page),
        ]),
      });
      const [access, parts, pending, span] = stored.rest;
      const answer = {
        access,
        parts,
        updatedAt: stored.updatedAt,
        monitors: stored.monitors,
        instant: stored.instant,
      };
      if ((!pending && overallHoldsAt(span, stored.instant)) || parts.head === undefined) return answer;
      const read = await readAtInstant(redis, page, {
        clockNow,
        series: true,
        rest: tupleRead([accessRead(page), embedRead(page), documentsRead(page, true)]),
      });
      const { instant, core, monitors, updatedAt } = read;
      const state = documentOf(core, read.rest[2]);
      if (state === null || monitors === null)
        return { ...answer, access: read.rest[0], parts: read.rest[1] };
      const rendered = renderEmbedParts({
        slug: page.slug,
        pageUrl: pageUrl(state.settings, urls),
        overall: pageOverall(state, monitors, instant),
        monitors,
        incidents: Object.values(state.incidents),
      });
      return {
        access: accessOf(state),
        parts: rendered,
        updatedAt,
        monitors: series ? monitors : null,
        instant,
      };
    },

    /** A slice of a list with its documents in list order; `slice` null reads access only. */
    list: (page: PageRef, keys: ListKeys, slice: ListSlice | null): Promise<ListPage> =>
      runRead(redis, listPageRead(page, keys, slice)),
  };
};

export type PageReads = ReturnType<typeof createPageReads>;
