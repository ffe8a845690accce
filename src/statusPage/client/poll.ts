// Refresh loops: each waits for its previous run, skips while the tab is hidden, runs at once
// when the tab comes back, and spreads readers with a little jitter.
import { ApiFailure } from './api.ts';

const rethrowUnlessApiFailure = (error: unknown): void => {
  if (!(error instanceof ApiFailure)) throw error;
};

export type Poller = Readonly<{ stop: () => void; now: () => void }>;

export const every = (intervalMs: number, task: () => Promise<unknown>): Poller => {
  let timer: number | undefined;
  let stopped = false;
  const isStopped = (): boolean => stopped; // read after an await: stop() may have run meanwhile
  const run = async (): Promise<void> => {
    window.clearTimeout(timer);
    if (stopped) return;
    // API failures are reported by the API layer; anything else is a bug and must show.
    if (!document.hidden) await task().catch(rethrowUnlessApiFailure);
    if (!isStopped())
      timer = window.setTimeout(() => void run(), intervalMs + Math.random() * intervalMs * 0.1);
  };
  const onVisible = (): void => {
    if (!document.hidden) void run();
  };
  document.addEventListener('visibilitychange', onVisible);
  timer = window.setTimeout(() => void run(), intervalMs);
  return {
    stop: () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    },
    now: () => void run(),
  };
};
