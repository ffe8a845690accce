// What one projector job does: catch its partition up on the active version. When the models
// are missing altogether (fresh or wiped Redis) it rebuilds them first, one process at a time;
// when part of the active version was lost (detectLoss.ts) it rebuilds the whole version.
import type { ActiveVersion } from '../../projections/store/control/codec.ts';
import type { ActiveVersionReader } from '../store/control/activeVersionReader.ts';
import { readActive } from '../store/control/versions.ts';
import { checkpointLost, ModelsLost, type LossKind } from './detectLoss.ts';
import { rebuild, RebuildRunning } from './rebuild.ts';
import { runPartition, type PartitionRef, type ProjectorDeps, type RunResult } from './runPartition.ts';

export type JobContext = ProjectorDeps &
  Readonly<{
    prefix: string;
    partitions: number;
    /** Queue the partition again when the budget ran out before catching up. */
    requeue: (partition: number) => Promise<void>;
    /** Counts each time lost models were detected (projector_models_lost_total). */
    onLoss?: (kind: LossKind) => void;
    /**
     * The active version, cached by the worker for a second (a rebuild's flip reaches it that much
     * later; until then it projects into the retired version, which the fence makes harmless).
     */
    activeVersion?: ActiveVersionReader;
  }>;

export const JOB_BUDGET_MS = 10_000;

/** Builds when nothing is active, or repairs `damaged`; null while another process builds. */
const buildModels = async (ctx: JobContext, damaged?: number): Promise<ActiveVersion | null> => {
  try {
    const built = await rebuild(ctx, {
      prefix: ctx.prefix,
      partitions: ctx.partitions,
      ...(damaged === undefined ? { graceMs: 0, onlyIfMissing: true } : { onlyIfActive: damaged }),
    });
    ctx.log.info({ version: built.version }, 'read models active');
    return built;
  } catch (error) {
    if (error instanceof RebuildRunning) return null;
    throw error;
  }
};

/** Rebuilds when nothing is active; returns the active version, or null while another process builds. */
const ensureModels = async (ctx: JobContext): Promise<ActiveVersion | null> =>
  (await (ctx.activeVersion?.() ?? readActive(ctx.redis, ctx.prefix))) ?? buildModels(ctx);

/** Logs and counts the loss, then rebuilds the damaged version while it keeps serving what is left. */
const repair = async (ctx: JobContext, ref: PartitionRef, loss: ModelsLost): Promise<null> => {
  ctx.log.error(
    { kind: loss.kind, partition: ref.partition, version: ref.version, pages: loss.pages, err: loss.message },
    'read models lost in Redis: rebuilding the version',
  );
  ctx.onLoss?.(loss.kind);
  await buildModels(ctx, ref.version);
  return null;
};

export const projectPartition = async (ctx: JobContext, partition: number): Promise<RunResult | null> => {
  const active = await ensureModels(ctx);
  if (!active || partition >= active.partitions) return null;
  const ref = { prefix: ctx.prefix, version: active.version, partition, partitions: active.partitions };
  let result: RunResult;
  try {
    result = await runPartition(ctx, ref, { mode: 'continuous', budgetMs: JOB_BUDGET_MS });
  } catch (error) {
    if (error instanceof ModelsLost) return repair(ctx, ref, error);
    throw error;
  }
  if (result.fenced && (await checkpointLost(ctx.redis, ref)))
    return repair(ctx, ref, new ModelsLost('checkpoint', `v${ref.version}.p${partition}`));
  if (!result.caughtUp && !result.fenced) await ctx.requeue(partition);
  return result;
};
