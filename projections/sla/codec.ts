// Values of the SLA model: the meta document and the month summaries (exact ms, per monitor).
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { Summary } from './summary.ts';
import { parseStoredJson } from '../store/corruptReadModel.ts';

export type SlaMeta = Readonly<{ time_zone: string; current: string }>;

const Meta = z.object({ time_zone: z.string(), current: z.string() });

export const encodeMeta = (meta: SlaMeta): string => JSON.stringify(meta);
export const decodeMeta = (text: string | null): SlaMeta | null =>
  text === null ? null : parseStoredJson(Meta, text, 'sla meta');

const Pair = z.tuple([z.number(), z.number()]);
const StoredSummary = z.object({
  total: z.number(),
  excluded: z.number(),
  down: z.number(),
  count: z.number(),
  first: Pair.nullable(),
  last: Pair.nullable(),
  longest: z.number(),
  days: z.array(z.tuple([z.number(), z.number(), z.number(), z.number()])),
});
const MonthSummaries = z.record(StoredSummary);

/** One month's summaries: monitor id → summary. */
export type MonthSummaries = ReadonlyMap<number, Summary>;

/** Gzipped and base64: a month holds a row per monitor and local day (the only place a day is stored). */
export const encodeSummaries = (summaries: MonthSummaries): string =>
  gzipSync(JSON.stringify(Object.fromEntries([...summaries].map(([id, s]) => [String(id), s]))), {
    level: 1,
  }).toString('base64');

export const decodeSummaries = (text: string | null): MonthSummaries | null =>
  text === null
    ? null
    : new Map(
        Object.entries(
          parseStoredJson(
            MonthSummaries,
            gunzipSync(Buffer.from(text, 'base64')).toString('utf8'),
            'sla summary',
          ),
        ).map(([id, s]) => [Number(id), s]),
      );
