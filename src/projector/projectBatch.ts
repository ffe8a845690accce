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
  tag: string,
  rows: readonly LogRow[],
  now: number,
  /** The log as projected before this batch: backfilled checks are replayed from it. */
  log?: ProjectedLog,
  /** Stop with ModelsLost when a page's document is missing (not for a fresh version's replay). */
  { expectDocuments = false }: { expectDocuments?: boolean } = {},
  // eslint-disable-next-line max-params -- to group with its caller, runPartition.ts, under rework
): Promise<BatchPlan> => {
  const parsed = parseRows(rows);
  const { inputs, evolved } = await loadBatchInputs(redis, { tag, events: parsed.events, now, log });
  if (expectDocuments) {
    const lost = await lostPages(redis, tag, parsed.events, inputs.states);
    if (lost.length > 0) throw new ModelsLost('page_state', tag, lost);
  }
  const plan = planEvolvedBatch(tag, parsed.events, evolved, inputs, now);
  return { ...plan, deadLetters: [...parsed.deadLetters, ...plan.deadLetters] };
};
