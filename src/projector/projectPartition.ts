// What one projector job does: catch its partition up on the active version. When the models
// are missing altogether (fresh or wiped Redis) it rebuilds them first, one process at a time.
import type { ActiveVersion } from '../models/control/codec.ts';
import { rebuild, RebuildRunning } from './rebuild.ts';
import { runPartition, type ProjectorDeps, type RunResult } from './runPartition.ts';
import { readActive } from '../models/control/versions.ts';

export type JobContext = ProjectorDeps &
  Readonly<{
    prefix: string;
    partitions: number;
    /** Queue the partition again when the budget ran out before catching up. */
    requeue: (partition: number) => Promise<void>;
  }>;

const JOB_BUDGET_MS = 10_000;

/** Rebuilds when nothing is active; returns the active version, or null while another process builds. */
export const ensureModels = async (ctx: JobContext): Promise<ActiveVersion | null> => {
  const active = await readActive(ctx.redis, ctx.prefix);
  if (active) return active;
  try {
    const built = await rebuild(ctx, {
      prefix: ctx.prefix,
      partitions: ctx.partitions,
      graceMs: 0,
      onlyIfMissing: true,
    });
    ctx.log.info({ version: built.version }, 'read models active');
    return built;
  } catch (error) {
    if (error instanceof RebuildRunning) return null;
    throw error;
  }
};

export const projectPartition = async (ctx: JobContext, partition: number): Promise<RunResult | null> => {
  const active = await ensureModels(ctx);
  if (!active || partition >= active.partitions) return null;
  const ref = { prefix: ctx.prefix, version: active.version, partition, partitions: active.partitions };
  const result = await runPartition(ctx, ref, { mode: 'continuous', budgetMs: JOB_BUDGET_MS });
  if (!result.caughtUp && !result.fenced) await ctx.requeue(partition);
  return result;
};
