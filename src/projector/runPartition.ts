// The catch-up loop of one partition of one read-model version: read a batch after the
// checkpoint, plan its writes, commit them with the checkpoint compare-and-set, render what the
// batch made dirty; on a new minute, render what the clock changed.
import type { RedisClient } from '../store/redisClient.ts';
import type { Db } from '../eventLog/createDb.ts';
import type { UrlSettings } from '../../projections/types.ts';
import { formatCheckpoint, parseCheckpoint, readAfter, type LogRow } from '../eventLog/readAfter.ts';
import { partitionTag } from '../../projections/store/control/keys.ts';
import { checkpointRead, queueOfMarks, tickRead } from '../store/control/reads.ts';
import { setTick } from '../../projections/store/control/writes.ts';
import { commitBatch, encodeBatch } from '../store/control/commitWrites.ts';
import { announceDomainChanges } from '../../projections/domains/storage.ts';
import { runRead } from '../store/reads.ts';
import type { Clock } from '../shared/clock.ts';
import type { Logger } from '../shared/logger.ts';
import { MINUTE_MS } from '../shared/time.ts';
import { collectRenders, rendersOf } from './collectRenders.ts';
import { ModelsLost } from './detectLoss.ts';
import { poisonedPages, quarantineWrites, recordDeadLetters } from './poisonedPages.ts';
import { planWithinCommit } from './planWithinCommit.ts';
import { projectBatch } from './projectBatch.ts';
import { renderPages, type QuarantineNotice } from './renderPages.ts';
import { renderSla } from '../readModels/sla/renderSla.ts';
import { checkedKeysOf, purgeWrites, type EdgePurgeQueue } from './renderPurgeKeys.ts';

/** One committed batch: `others` counts its events that are not checks (what subscribers hear of). */
export type BatchInfo = Readonly<{ partition: number; events: number; others: number; seconds: number }>;

export type ProjectorDeps = Readonly<{
  db: Db;
  redis: RedisClient;
  clock: Clock;
  urls: UrlSettings;
  batchSize: number;
  log: Logger;
  onBatch?: (info: BatchInfo) => void;
  /** Set when an edge is purged (EDGE_PURGE): commits queue their purges in the partition's outbox. */
  edgePurge?: EdgePurgeQueue;
  /** Pages rendered (projector_renders_total). */
  onRender?: (pages: number) => void;
}>;

export type PartitionRef = Readonly<{
  prefix: string;
  version: number;
  partition: number;
  partitions: number;
}>;

type RunOptions = Readonly<{
  /** rebuild renders once, at the end; continuous renders as it goes. */
  mode: 'continuous' | 'rebuild';
  /** Stop after this long even if not caught up (the job is queued again). */
  budgetMs?: number;
}>;

export type RunResult = { events: number; caughtUp: boolean; fenced: boolean };

const RENDER_EVERY_MS = 250;

/**
 * Per partition tag, the minute at which this process last found (or moved) both of its clocks,
 * the render tick and the SLA tick. Clocks only move forward, so a run within that minute that
 * marked nothing for the SLA summaries has no clock work to do and need not read them.
 */
const clocksAt = new Map<string, number>();
const MAX_CLOCKS_KNOWN = 4_096; // tags: versions × partitions; forgetting one costs a read

/**
 * Per partition tag, the checkpoint this process's last batch committed: the next batch starts
 * from it without reading it. Taken out while a batch runs, so a run that fails or is fenced
 * leaves none; one made stale by another process is refused by the commit's fence (the models at
 * a checkpoint are the same whoever projected them, so an equal one is no harm).
 */
const committed = new Map<string, string>();
const takeCommitted = (tag: string): string | undefined => {
  const known = committed.get(tag);
  committed.delete(tag);
  return known;
};

/** Logs a page the render quarantined (once: it is logged when it goes in). */
const logQuarantine =
  (log: Logger) =>
  (notice: QuarantineNotice): void => {
    log.error(
      { page: notice.slug, position: notice.position, error: notice.error, partition: notice.tag },
      'page quarantined: render failed',
    );
  };

export const runPartition = async (
  deps: ProjectorDeps,
  ref: PartitionRef,
  options: RunOptions,
): Promise<RunResult> => {
  const { db, redis, clock } = deps;
  const tag = partitionTag(ref.prefix, ref.version, ref.partition);
  const started = Date.now();
  const result: RunResult = { events: 0, caughtUp: false, fenced: false };
  const fenced = () => ((result.fenced = true), result);
  let lastRender = performance.now();
  let slaMarked = false;

  while (options.budgetMs === undefined || Date.now() - started < options.budgetMs) {
    const batchStarted = performance.now();
    // A rebuild reads it: a version made again under the same tag starts over from the log's start.
    const known = options.mode === 'continuous' ? takeCommitted(tag) : undefined;
    const current = known ?? (await runRead(redis, checkpointRead(tag)));
    if (current === null) return fenced(); // version retired or not created
    const { rows, scannedTo } = await readAfter(db, parseCheckpoint(current), {
      limit: deps.batchSize,
      partition: { index: ref.partition, count: ref.partitions },
    });
    if (scannedTo === null) {
      committed.set(tag, current); // nothing to project: the next run may start from it too
      result.caughtUp = true;
      break;
    }
    const now = clock().getTime();
    const planRows = async (part: readonly LogRow[]) => {
      const effects = await projectBatch(redis, {
        tag,
        rows: part,
        now,
        log: { db, projectedTo: parseCheckpoint(current) },
        expectDocuments: true,
      });
      const poisoned = poisonedPages(part, effects.deadLetters);
      const writes = [
        ...effects.writes,
        ...quarantineWrites(tag, poisoned, now),
        ...(effects.domainsChanged ? [announceDomainChanges(ref.prefix, tag)] : []),
        // A rebuild purges every page once it is active (its last render); a live batch, its checks.
        ...(options.mode === 'continuous'
          ? purgeWrites(tag, deps.edgePurge, checkedKeysOf(effects.checked, effects.urgent))
          : []),
      ];
      return { effects, poisoned, encoded: encodeBatch(tag, writes) };
    };
    const batch = await planWithinCommit(rows, scannedTo, planRows, (p) => p.encoded.load).catch(
      async (error: unknown) => {
        // Documents gone because the partition moved on (a rebuild, a flush) are a fence, not a loss.
        if (error instanceof ModelsLost && (await runRead(redis, checkpointRead(tag))) !== current)
          return null;
        throw error;
      },
    );
    // Fenced from a remembered checkpoint: another process moved on since. Read where it stands
    // and go on, rather than leave this job's events to the next wake-up.
    if (batch === null) {
      if (known === undefined) return fenced();
      continue;
    }
    const { effects, poisoned, encoded } = batch.plan;
    if (effects.deadLetters.length > 0)
      await recordDeadLetters(deps, `v${ref.version}`, effects.deadLetters, poisoned); // before the commit
    const fence = { tag, expected: current, next: formatCheckpoint(batch.to) };
    if (!(await commitBatch(redis, fence, encoded))) {
      if (known === undefined) return fenced();
      continue;
    }
    if (committed.size >= MAX_CLOCKS_KNOWN) committed.clear();
    committed.set(tag, fence.next);
    result.events += batch.rows.length;
    slaMarked ||= effects.slaMarked;
    if (options.mode === 'continuous' && checkedKeysOf(effects.checked, effects.urgent).soft.length > 0)
      deps.edgePurge?.queued?.(tag);
    deps.onBatch?.({
      partition: ref.partition,
      events: batch.rows.length,
      others: batch.rows.filter((row) => row.type !== 'check.recorded').length,
      seconds: (performance.now() - batchStarted) / 1000,
    });
    // While catching up on a backlog, render at most every RENDER_EVERY_MS: the outputs show
    // every projected event as soon as the backlog is gone, without re-rendering per batch.
    // Pages in which a monitor went down or came back (or an incident, maintenance or the page
    // itself changed) render at once: that is what a status page's reader is waiting for, and it
    // is rare next to checks; the other dirty pages keep their marks until the next full render.
    if (options.mode === 'continuous') {
      const full = performance.now() - lastRender > RENDER_EVERY_MS;
      if (full || effects.urgent.size > 0) {
        // The urgent pages' marks are the batch's own: handed over rather than read back.
        const pages = full
          ? await collectRenders(redis, tag, { tick: false, now })
          : rendersOf(queueOfMarks(effects.marks)).filter((page) => effects.urgent.has(page.slug));
        const rendered = await renderPages(
          redis,
          { tag, pages, now, urls: deps.urls },
          {
            checkpoint: fence.next,
            onQuarantine: logQuarantine(deps.log),
            ...purgeOf(deps, 'events'),
          },
        );
        if (!rendered) return fenced();
        deps.onRender?.(pages.length);
        if (full) lastRender = performance.now();
      }
    }
    // A short read reached the end of what is readable: events committed since wake the
    // partition again, so one more read would most often find nothing.
    if (rows.length < deps.batchSize && batch.rows.length === rows.length) {
      result.caughtUp = true;
      break;
    }
  }
  // A rebuild renders once, when its partition has caught up.
  if (options.mode === 'rebuild' && !result.caughtUp) return result;
  const minute = Math.floor(clock().getTime() / MINUTE_MS) * MINUTE_MS;
  const sla = {
    redis,
    now: clock().getTime(),
    log: deps.log,
    ...(deps.edgePurge ? { edgePurge: deps.edgePurge } : {}),
  };
  if (options.mode === 'continuous' && (clocksAt.get(tag) ?? -Infinity) >= minute) {
    // Both clocks stand at this minute: only what the run itself asks for. A run that projected
    // nothing (the scheduler's poll, a retry) renders what earlier renders left marked.
    const poll = result.events === 0;
    if (poll && !(await renderLeftovers(deps, tag))) return fenced();
    if ((poll || slaMarked) && !(await renderSla(sla, tag, false))) return fenced();
    return result;
  }
  if (!(await renderClock(deps, tag, options.mode === 'rebuild', result.events === 0))) return fenced();
  if (!(await renderSla(sla, tag, options.mode === 'rebuild'))) return fenced();
  if (clocksAt.size >= MAX_CLOCKS_KNOWN) clocksAt.clear();
  clocksAt.set(tag, minute);
  return result;
};

/** The render option that queues a commit's purges (none when the edge is not purged). */
const purgeOf = (deps: ProjectorDeps, mode: 'events' | 'all') =>
  deps.edgePurge === undefined ? {} : { purge: { mode, edge: deps.edgePurge } };

/**
 * Renders what the render sets ask for and, on a tick, the pages the clock made due (setting the
 * tick with them); a rebuild's renders are not live (not purged) until it activates.
 */
const renderMarked = async (
  deps: ProjectorDeps,
  tag: string,
  tick: Readonly<{ minute: number; live: boolean }> | null,
): Promise<boolean> => {
  const now = deps.clock().getTime();
  const pages = await collectRenders(deps.redis, tag, { tick: tick !== null, now });
  const rendered = await renderPages(
    deps.redis,
    { tag, pages, now, urls: deps.urls },
    {
      ...(tick ? { extra: [setTick(tag, tick.minute)] } : {}),
      onQuarantine: logQuarantine(deps.log),
      ...purgeOf(deps, tick?.live === false ? 'all' : 'events'),
    },
  );
  if (rendered) deps.onRender?.(pages.length);
  return rendered;
};

/** Renders what earlier renders left marked (a fenced or failed one). */
const renderLeftovers = (deps: ProjectorDeps, tag: string): Promise<boolean> => renderMarked(deps, tag, null);

/**
 * On a new minute (or at the end of a rebuild) renders the pages the clock made due; otherwise,
 * after a run that projected nothing (the scheduler's poll), what earlier renders left marked.
 */
const renderClock = async (
  deps: ProjectorDeps,
  tag: string,
  force: boolean,
  leftovers: boolean,
): Promise<boolean> => {
  const minute = Math.floor(deps.clock().getTime() / MINUTE_MS) * MINUTE_MS;
  const last = await runRead(deps.redis, tickRead(tag));
  // Every mark a batch sets comes with a page the batch rendered at once (planBatch's urgent);
  // what a fenced or failed render left is picked up by the next minute's tick.
  if (!force && last >= minute) return leftovers ? renderLeftovers(deps, tag) : true;
  return renderMarked(deps, tag, { minute, live: !force });
};
