// A loop's sleep that a wake cuts short. A wake that comes while the loop is busy is kept, and its
// next sleep returns at once: the step that was running may have read the log before the news.
export type Waker = Readonly<{ sleep: () => Promise<void>; wake: () => void }>;

export const createWaker = (pollMs: number): Waker => {
  let pending = false;
  let sleeper: (() => void) | null = null;
  return {
    sleep: () => {
      if (pending) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          sleeper = null;
          resolve();
        }, pollMs);
        sleeper = () => {
          clearTimeout(timer);
          sleeper = null;
          resolve();
        };
      });
    },
    wake: () => {
      if (sleeper === null) pending = true;
      else sleeper();
    },
  };
};
