// `npm run rebuild` may be run at any time, also while another rebuild runs (the workers start one
// by themselves after Redis lost its data, or another operator did): it then waits for that one
// and, when it activated a version built like ours, joins its outcome instead of failing.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ActiveVersion } from '../../projections/store/control/codec.ts';
import { lockHolderPurpose } from '../store/control/rebuildLock.ts';
import { readActive } from '../store/control/versions.ts';
import { rebuild, RebuildRunning, type RebuildOptions } from './rebuild.ts';
import type { ProjectorDeps } from './runPartition.ts';

/** `built`: this call built the version; `joined`: a rebuild running beside it did. */
type RebuildOutcome = Readonly<{ kind: 'built' | 'joined'; active: ActiveVersion }>;

type JoinOptions = Readonly<{
  /** Called once each time it finds another rebuild running and starts waiting for it. */
  onWait?: () => void;
  pollMs?: number;
  /** False: after waiting, build anyway (the running one may have read the log before a repair). */
  join?: boolean;
}>;

/** Whether `after` is a version some rebuild activated since `before`, with our partition count. */
const rebuiltSince = (before: ActiveVersion | null, after: ActiveVersion, partitions: number) =>
  after.partitions === partitions && (before === null || after.version > before.version);

/**
 * Rebuilds; while another rebuild holds the lock, waits until it lets go. If it activated a new
 * version with the same partition count, that is the outcome; if it failed (or built another
 * partition count), this call rebuilds itself.
 */
export const rebuildOrJoin = async (
  deps: ProjectorDeps,
  options: RebuildOptions,
  { onWait, pollMs = 500, join = true }: JoinOptions = {},
): Promise<RebuildOutcome> => {
  for (;;) {
    const before = await readActive(deps.redis, options.prefix);
    try {
      return { kind: 'built', active: await rebuild(deps, options) };
    } catch (error) {
      if (!(error instanceof RebuildRunning)) throw error;
    }
    onWait?.();
    while ((await lockHolderPurpose(deps.redis, options.prefix)) !== null) await sleep(pollMs);
    const after = await readActive(deps.redis, options.prefix);
    if (join && after !== null && rebuiltSince(before, after, options.partitions))
      return { kind: 'joined', active: after };
  }
};
