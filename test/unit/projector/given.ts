// Given/when/then for planning a batch: given these events and what Redis held before them,
// when the batch is planned, then these writes come out. No Redis: planBatch is pure.
import type { PageState } from '../../../projections/types.ts';
import type { ProjectedEvent } from '../../../src/events/storedEvent.ts';
import { projectedEvent } from '../../support/events.ts';
import type { TimelineHead } from '../../../projections/timeline/codec.ts';
import type { WriteOp } from '../../../projections/store/writeOps.ts';
import { planBatch, type BatchInputs } from '../../../projections/batch/planBatch.ts';
import type { LateSpan } from '../../../projections/timeline/planChecks.ts';

export const TAG = 'sp:{v1.p0}';
export const ms = (iso: string): number => Date.parse(iso);

let position = 100;
export const anEvent = (type: string, at: string, data: Record<string, unknown> = {}, page = 'acme') =>
  projectedEvent({ type, page, at, position: String(++position), data });

export const aCheck = (at: string, status: 'up' | 'down' | 'degraded', monitorId = 1, rt = 100) =>
  anEvent('check.recorded', at, { monitor_id: monitorId, status, response_time_ms: rt });

/** A configured page with monitor 1 (and any others given). */
export const aPage = (monitorIds: number[] = [1], slug = 'acme'): PageState => ({
  settings: {
    slug,
    title: 'Acme',
    plan: 'growth',
    customDomain: null,
    tokenHash: null,
    blocked: false,
    configuredAt: null,
  },
  deleted: false,
  updatedAt: ms('2026-11-22T00:00:00Z'),
  monitors: Object.fromEntries(
    monitorIds.map((id) => [
      String(id),
      { id, name: `M${id}`, type: 'http', impact: 'partial', position: null },
    ]),
  ),
  incidents: {},
  maintenances: {},
});

export const aHead = (
  first: string,
  lastAt: string,
  status: 'up' | 'down',
  openDown?: string,
): TimelineHead => ({
  first: ms(first),
  last: { at: ms(lastAt), position: 50n, status },
  openDownStart: openDown === undefined ? null : ms(openDown),
});

type Given = Readonly<{
  states?: Record<string, PageState | null>;
  heads?: Record<number, TimelineHead | null>;
  spans?: Record<number, LateSpan>;
  /** Pages whose document was loaded from the single-document layout. */
  legacy?: string[];
}>;

export const when = (given: Given, events: ProjectedEvent[], now = ms('2026-11-22T12:00:00Z')) =>
  planBatch(TAG, events, inputsOf(given), now);

const inputsOf = (given: Given): BatchInputs => ({
  states: new Map(Object.entries(given.states ?? {})),
  heads: new Map(Object.entries(given.heads ?? {}).map(([id, head]) => [Number(id), head])),
  spans: new Map(Object.entries(given.spans ?? {}).map(([id, span]) => [Number(id), span])),
  legacyPages: new Set(given.legacy ?? []),
});

/** The writes to one key, in order. */
export const writesTo = (writes: readonly WriteOp[], key: string): WriteOp[] =>
  writes.filter((w) => (w.op === 'del' ? w.keys.includes(key) : 'key' in w && w.key === key));

/** The members added to a render set of the partition. */
export const marked = (writes: readonly WriteOp[], set: string): string[] =>
  writes.flatMap((w) => (w.op === 'sadd' && w.key === `${TAG}:${set}` ? [w.member] : []));
