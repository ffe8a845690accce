// Partitions this process caught up lately. The poll need not wake them: their own jobs read
// everything after their checkpoints (what a lost wake-up left too) and turned the minute.
export type RecentRuns = Readonly<{
  /** A job of `partition` caught it up. */
  caughtUp: (partition: number) => void;
  /** Those of `partitions` no job caught up within the window. */
  quiet: (partitions: readonly number[]) => number[];
}>;

export const createRecentRuns = (windowMs: number, now: () => number = Date.now): RecentRuns => {
  const last = new Map<number, number>();
  return {
    caughtUp: (partition) => last.set(partition, now()),
    quiet: (partitions) =>
      partitions.filter((p) => now() - (last.get(p) ?? Number.NEGATIVE_INFINITY) >= windowMs),
  };
};
