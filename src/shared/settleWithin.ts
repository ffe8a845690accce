// Bounds how long a caller waits for a promise, without leaving a timer behind. The work itself
// is not cancelled (a Redis command or a query cannot be): the caller just stops waiting for it.

class TimedOut extends Error {
  override readonly name = 'TimedOut';
}

type Settled<T> = Readonly<{ ok: true; value: T } | { ok: false; error: unknown }>;

/** The outcome of `work`, or a TimedOut failure once `ms` have passed. Never rejects. */
export const settleWithin = async <T>(work: Promise<T>, ms: number): Promise<Settled<T>> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => {
      resolve({ ok: false, error: new TimedOut(`no answer within ${ms} ms`) });
    }, ms);
  });
  try {
    return await Promise.race([
      work.then(
        (value): Settled<T> => ({ ok: true, value }),
        (error: unknown): Settled<T> => ({ ok: false, error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
};
