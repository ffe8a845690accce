// The handlers incidents and maintenances share (a page of the list, a month, a month's daily
// counts), assembled from stored documents by concatenation.
import type { Request, Response } from 'express';
import { pageKeys } from '../../edge/surrogateKeys.ts';
import type { EdgeLifetime } from '../../edge/edgeHeaders.ts';
import { ApiError } from '../../http/errors.ts';
import { admit, pageRules, parseSlug, type RouteDeps } from '../access/pageGate.ts';
import { MonthQuery } from '../../http/schemas.ts';
import { cacheControl, cacheFor, readyBody, sendBody } from '../../http/send.ts';
import type { PageAccess } from '../../../projections/access/codec.ts';
import { emptyDailyCounts } from './emptyDailyCounts.ts';
import type { ListKeys } from '../../../projections/lists/keys.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { EARLIEST_MS, LATEST_MS } from '../../events/bounds.ts';

type Handler = (req: Request, res: Response) => Promise<void>;
type Paging = { page: number; page_size: number };
type Parser<Q> = { safeParse: (input: unknown) => { success: true; data: Q } | { success: false } };

type ListKind = Readonly<{
  field: 'incidents' | 'maintenances';
  keys: (page: PageRef) => ListKeys;
}>;

/** A list answer ready to send; `ready` null when the query was invalid (access still decides first). */
type ListAnswer = Readonly<{
  access: PageAccess | null;
  ready: Readonly<{ body: Buffer; etag: string }> | null;
  /** A list page's total items: tells which pages lie past the end. */
  total?: number;
}>;

// No item is ever dated outside the log's bounds (src/events/bounds.ts): such a month is empty.
const EARLIEST_MONTH = new Date(EARLIEST_MS).toISOString().slice(0, 7);
const LATEST_MONTH = new Date(LATEST_MS).toISOString().slice(0, 7);
const outsideLog = (month: string): boolean => month < EARLIEST_MONTH || month >= LATEST_MONTH;

const answerSize = (answer: ListAnswer): number => answer.ready?.body.length ?? 0;

/** `valid`: the query was understood; `counts`: the answer is a month's daily counts. */
type SendOptions = Readonly<{ valid: boolean; cached?: boolean; counts?: boolean }>;

export const pageListHandlers = ({ reads, locate, cache }: RouteDeps, kind: ListKind) => {
  // A maintenance's status moves with the clock; incidents and every daily count only with events.
  const lifetime = (counts: boolean): EdgeLifetime =>
    kind.field === 'maintenances' && !counts ? 'minute' : 'day';
  /**
   * Sends `answer`, or invalid_parameters when the query was not `valid`; `cached` false for one
   * made for this request alone (the memo keeps none).
   */
  const send = async (
    req: Request,
    res: Response,
    answer: ListAnswer,
    { valid, cached = true, counts = false }: SendOptions,
  ) => {
    const { isPrivate } = await admit(answer.access, req, pageRules);
    if (!valid || answer.ready === null) throw new ApiError('invalid_parameters');
    sendBody(req, res, {
      ...answer.ready,
      cacheControl: cacheFor(isPrivate, cacheControl.lists),
      ...(cached ? { from: answer } : {}),
      edge: { keys: pageKeys(String(req.params['slug']), false), lifetime: lifetime(counts) },
      settled: cache.isSettled(answer),
    });
  };

  /** The page's access alone (shared by every answer that needs no read of its own). */
  const accessOnly = (ref: PageRef): Promise<ListAnswer> =>
    cache.get(ref, `${kind.field}|access`, {
      load: async () => ({ access: (await reads.list(ref, kind.keys(ref), null)).access, ready: null }),
      bytes: answerSize,
    });

  /**
   * A handler of `?month=YYYY-MM`; `answer` gets null for an invalid month (access only). A month
   * outside the log's bounds is `empty` for every page: no entry, no read of its own.
   */
  const monthHandler =
    (
      name: string,
      answer: (ref: PageRef, month: string | null) => Promise<ListAnswer>,
      empty: (month: string) => string,
    ): Handler =>
    async (req, res) => {
      const slug = parseSlug(req.params['slug'], 'not_found');
      const query = MonthQuery.safeParse(req.query);
      const ref = await locate(slug);
      const month = query.success ? query.data.month : null;
      if (month !== null && outsideLog(month)) {
        const { access } = await accessOnly(ref);
        const emptyMonth = { access, ready: readyBody(empty(month)) };
        await send(req, res, emptyMonth, { valid: true, cached: false, counts: name === 'counts' });
        return;
      }
      const answered = await cache.get(ref, `${kind.field}|${name}|${month}`, {
        load: () => answer(ref, month),
        bytes: answerSize,
      });
      await send(req, res, answered, { valid: query.success, counts: name === 'counts' });
    };

  return {
    /** GET …/{incidents|maintenances}: one page of the list chosen by `listOf`. */
    list:
      <Q extends Paging>(schema: Parser<Q>, listOf: (page: PageRef, query: Q) => string): Handler =>
      async (req, res) => {
        const slug = parseSlug(req.params['slug'], 'not_found');
        const query = schema.safeParse(req.query);
        const ref = await locate(slug);
        if (!query.success) {
          await send(req, res, await accessOnly(ref), { valid: false });
          return;
        }
        const zset = listOf(ref, query.data);
        const { page, page_size } = query.data;
        const bodyOf = (docs: readonly string[], total: number, at: number) =>
          `{"${kind.field}":[${docs.join(',')}],"page":${at},"page_size":${page_size},` +
          `"total_pages":${Math.ceil(total / page_size)},"total_items":${total}}`;
        const pageAnswer = (at: number) =>
          cache.get(ref, `${zset}|${at}|${page_size}`, {
            load: async (): Promise<ListAnswer> => {
              const slice = { zset, start: (at - 1) * page_size, stop: at * page_size - 1 };
              const read = await reads.list(ref, kind.keys(ref), slice);
              return {
                access: read.access,
                ready: readyBody(bodyOf(read.docs, read.total, at)),
                total: read.total,
              };
            },
            bytes: answerSize,
          });
        // A page past the end is empty: made from the first page's total, with no entry of its own.
        if (page > 1) {
          const first = await pageAnswer(1);
          const total = first.total ?? 0;
          if (first.ready !== null && page > Math.max(1, Math.ceil(total / page_size))) {
            const pastEnd = { access: first.access, ready: readyBody(bodyOf([], total, page)) };
            await send(req, res, pastEnd, { valid: true, cached: false });
            return;
          }
        }
        await send(req, res, await pageAnswer(page), { valid: true });
      },

    /** GET …/filter?month=YYYY-MM: every item of the month, in list order. */
    month: (): Handler =>
      monthHandler(
        'month',
        async (ref, month) => {
          const keys = kind.keys(ref);
          const slice = month === null ? null : { zset: keys.month(month), start: 0, stop: -1 };
          const read = await reads.list(ref, keys, slice);
          if (month === null) return { access: read.access, ready: null };
          const body = `{"${kind.field}":[${read.docs.join(',')}],"month":"${month}","total_items":${read.docs.length}}`;
          return { access: read.access, ready: readyBody(body) };
        },
        (month) => `{"${kind.field}":[],"month":"${month}","total_items":0}`,
      ),

    /** GET …/daily-counts?month=YYYY-MM: stored per month; a month without items is all zeros. */
    counts: (): Handler =>
      monthHandler(
        'counts',
        async (ref, month) => {
          const read = await reads.dailyCounts(ref, kind.keys(ref), month);
          if (month === null) return { access: read.access, ready: null };
          return { access: read.access, ready: read.stored ?? readyBody(emptyDailyCounts(month)) };
        },
        emptyDailyCounts,
      ),
  };
};
