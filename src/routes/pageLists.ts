// The three handlers incidents and maintenances share: a page of the list, one month, and the
// daily counts of one month. Lists are assembled from stored documents (each already spec-shaped
// JSON) by concatenation, so the request path never parses or re-serialises them; each variant is
// assembled (and its ETag hashed) once per change of the page, then served from the process's cache.
import type { Request, Response } from 'express';
import { pageKeys } from '../edge/surrogateKeys.ts';
import type { EdgeLifetime } from '../edge/edgeHeaders.ts';
import { ApiError } from '../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { MonthQuery } from '../http/schemas.ts';
import { cacheControl, cacheFor, readyBody, sendBody } from '../http/send.ts';
import type { PageAccess } from '../models/access/codec.ts';
import { emptyDailyCounts } from '../models/lists/emptyDailyCounts.ts';
import type { ListKeys } from '../models/lists/keys.ts';
import type { PageRef } from '../models/page.ts';

type Handler = (req: Request, res: Response) => Promise<void>;
type Paging = { page: number; page_size: number };
type Parser<Q> = { safeParse: (input: unknown) => { success: true; data: Q } | { success: false } };

export type ListKind = Readonly<{
  field: 'incidents' | 'maintenances';
  keys: (page: PageRef) => ListKeys;
}>;

/** A list answer ready to send; `ready` null when the query was invalid (access still decides first). */
type ListAnswer = Readonly<{
  access: PageAccess | null;
  ready: Readonly<{ body: Buffer; etag: string }> | null;
}>;

const answerSize = (answer: ListAnswer): number => answer.ready?.body.length ?? 0;

export const pageListHandlers = ({ reads, locate, cache }: RouteDeps, kind: ListKind) => {
  // A maintenance's status moves with the clock; incidents and every daily count only with events.
  const lifetime = (counts: boolean): EdgeLifetime =>
    kind.field === 'maintenances' && !counts ? 'minute' : 'day';
  const send = (req: Request, res: Response, answer: ListAnswer, valid: boolean, counts = false) => {
    const { isPrivate } = admit(answer.access, req.query, pageRules);
    if (!valid || answer.ready === null) throw new ApiError('invalid_parameters');
    sendBody(req, res, {
      ...answer.ready,
      cacheControl: cacheFor(isPrivate, cacheControl.lists),
      from: answer,
      edge: { keys: pageKeys(String(req.params['slug']), false), lifetime: lifetime(counts) },
      settled: cache.isSettled(answer),
    });
  };

  /** A handler of `?month=YYYY-MM`; `answer` gets null for an invalid month (access only). */
  const monthHandler =
    (name: string, answer: (ref: PageRef, month: string | null) => Promise<ListAnswer>): Handler =>
    async (req, res) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const query = MonthQuery.safeParse(req.query);
      const ref = await locate(slug);
      const month = query.success ? query.data.month : null;
      const answered = await cache.get(
        ref,
        `${kind.field}|${name}|${month}`,
        () => answer(ref, month),
        answerSize,
      );
      send(req, res, answered, query.success, name === 'counts');
    };

  return {
    /** GET …/{incidents|maintenances}: one page of the list chosen by `listOf`. */
    list:
      <Q extends Paging>(schema: Parser<Q>, listOf: (page: PageRef, query: Q) => string): Handler =>
      async (req, res) => {
        const slug = parseSlug(req.params['slug'], 'not_found');
        const query = schema.safeParse(req.query);
        const ref = await locate(slug);
        const zset = query.success ? listOf(ref, query.data) : null;
        const variant = query.success ? `${zset}|${query.data.page}|${query.data.page_size}` : 'list|-';
        const answer = await cache.get(
          ref,
          variant,
          async (): Promise<ListAnswer> => {
            if (!query.success || zset === null) {
              return { access: (await reads.list(ref, kind.keys(ref), null)).access, ready: null };
            }
            const { page, page_size } = query.data;
            const slice = { zset, start: (page - 1) * page_size, stop: page * page_size - 1 };
            const read = await reads.list(ref, kind.keys(ref), slice);
            const body =
              `{"${kind.field}":[${read.docs.join(',')}],"page":${page},"page_size":${page_size},` +
              `"total_pages":${Math.ceil(read.total / page_size)},"total_items":${read.total}}`;
            return { access: read.access, ready: readyBody(body) };
          },
          answerSize,
        );
        send(req, res, answer, query.success);
      },

    /** GET …/filter?month=YYYY-MM: every item of the month, in list order. */
    month: (): Handler =>
      monthHandler('month', async (ref, month) => {
        const keys = kind.keys(ref);
        const slice = month === null ? null : { zset: keys.month(month), start: 0, stop: -1 };
        const read = await reads.list(ref, keys, slice);
        if (month === null) return { access: read.access, ready: null };
        const body = `{"${kind.field}":[${read.docs.join(',')}],"month":"${month}","total_items":${read.docs.length}}`;
        return { access: read.access, ready: readyBody(body) };
      }),

    /** GET …/daily-counts?month=YYYY-MM: stored per month; a month without items is all zeros. */
    counts: (): Handler =>
      monthHandler('counts', async (ref, month) => {
        const read = await reads.dailyCounts(ref, kind.keys(ref), month);
        if (month === null) return { access: read.access, ready: null };
        return { access: read.access, ready: read.stored ?? readyBody(emptyDailyCounts(month)) };
      }),
  };
};
