// The three handlers incidents and maintenances share: a page of the list, one month, and the
// daily counts of one month. Lists are assembled from stored documents (each already spec-shaped
// JSON) by concatenation, so the request path never parses or re-serialises them.
import type { RequestHandler } from 'express';
import { ApiError } from '../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { MonthQuery } from '../http/schemas.ts';
import { cacheControl, cacheFor, sendBody } from '../http/send.ts';
import { etagOf } from '../models/bytes.ts';
import { emptyDailyCounts } from '../models/lists/emptyDailyCounts.ts';
import type { ListKeys } from '../models/lists/keys.ts';
import type { PageRef } from '../models/page.ts';

type SlugParams = { slug: string };
type Paging = { page: number; page_size: number };
type Parser<Q> = { safeParse: (input: unknown) => { success: true; data: Q } | { success: false } };

export type ListKind = Readonly<{
  field: 'incidents' | 'maintenances';
  keys: (page: PageRef) => ListKeys;
}>;

export const pageListHandlers = ({ reads, locate }: RouteDeps, kind: ListKind) => ({
  /** GET …/{incidents|maintenances}: one page of the list chosen by `listOf`. */
  list:
    <Q extends Paging>(
      schema: Parser<Q>,
      listOf: (page: PageRef, query: Q) => string,
    ): RequestHandler<SlugParams> =>
    async (req, res) => {
      const slug = parseSlug(req.params.slug, 'not_found');
      const query = schema.safeParse(req.query);
      const ref = await locate(slug);
      const slice = query.success
        ? {
            zset: listOf(ref, query.data),
            start: (query.data.page - 1) * query.data.page_size,
            stop: query.data.page * query.data.page_size - 1,
          }
        : null;
      const read = await reads.list(ref, kind.keys(ref), slice);
      const { isPrivate } = admit(read.access, req.query, pageRules);
      if (!query.success) throw new ApiError('invalid_parameters');
      const { page, page_size } = query.data;
      const totalPages = Math.ceil(read.total / page_size);
      const body =
        `{"${kind.field}":[${read.docs.join(',')}],"page":${page},"page_size":${page_size},` +
        `"total_pages":${totalPages},"total_items":${read.total}}`;
      sendBody(req, res, { body, etag: etagOf(body), cacheControl: cacheFor(isPrivate, cacheControl.lists) });
    },

  /** GET …/filter?month=YYYY-MM: every item of the month, in list order. */
  month: (): RequestHandler<SlugParams> => async (req, res) => {
    const slug = parseSlug(req.params.slug, 'not_found');
    const query = MonthQuery.safeParse(req.query);
    const ref = await locate(slug);
    const keys = kind.keys(ref);
    const slice = query.success ? { zset: keys.month(query.data.month), start: 0, stop: -1 } : null;
    const read = await reads.list(ref, keys, slice);
    const { isPrivate } = admit(read.access, req.query, pageRules);
    if (!query.success) throw new ApiError('invalid_parameters');
    const body = `{"${kind.field}":[${read.docs.join(',')}],"month":"${query.data.month}","total_items":${read.docs.length}}`;
    sendBody(req, res, { body, etag: etagOf(body), cacheControl: cacheFor(isPrivate, cacheControl.lists) });
  },

  /** GET …/daily-counts?month=YYYY-MM: stored per month; a month without items is all zeros. */
  counts: (): RequestHandler<SlugParams> => async (req, res) => {
    const slug = parseSlug(req.params.slug, 'not_found');
    const query = MonthQuery.safeParse(req.query);
    const ref = await locate(slug);
    const read = await reads.dailyCounts(ref, kind.keys(ref), query.success ? query.data.month : null);
    const { isPrivate } = admit(read.access, req.query, pageRules);
    if (!query.success) throw new ApiError('invalid_parameters');
    const body = read.stored?.body ?? emptyDailyCounts(query.data.month);
    const etag = read.stored?.etag ?? etagOf(body);
    sendBody(req, res, { body, etag, cacheControl: cacheFor(isPrivate, cacheControl.lists) });
  },
});
