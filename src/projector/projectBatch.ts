// One batch of one partition: parse the rows, load what they need (I/O), plan the writes (pure).
// The caller commits the writes with the checkpoint (commitWrites).
import type { RedisClient } from '../store/redisClient.ts';
import type { LogRow } from '../eventLog/readAfter.ts';
import { lostPages, ModelsLost } from './detectLoss.ts';
import { loadBatchInputs } from './loadBatchInputs.ts';
import type { ProjectedLog } from './loadBackfill.ts';
import { parseRows } from './parseRows.ts';
import { planEvolvedBatch, type BatchPlan } from '../../projections/batch/planBatch.ts';

export const projectBatch = async (
  redis: RedisClient,
  batch: Readonly<{
    tag: string;
    rows: readonly LogRow[];
    now: number;
    /** The log as projected before this batch: backfilled checks are replayed from it. */
    log?: ProjectedLog;
    /** Stop with ModelsLost when a page's document is missing (not for a fresh version's replay). */
    expectDocuments?: boolean;
  }>,
): Promise<BatchPlan> => {
  const { tag, rows, now, log, expectDocuments = false } = batch;
  const parsed = parseRows(rows);
  const { inputs, evolved } = await loadBatchInputs(redis, { tag, events: parsed.events, now, log });
  if (expectDocuments) {
    const lost = await lostPages(redis, tag, parsed.events, inputs.states);
    if (lost.length > 0) throw new ModelsLost('page_state', tag, lost);
  }
  const plan = planEvolvedBatch({ tag, events: parsed.events, evolved, inputs, now });
  return { ...plan, deadLetters: [...parsed.deadLetters, ...plan.deadLetters] };
};
