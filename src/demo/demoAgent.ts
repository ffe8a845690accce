// Keeps the demo page alive after `npm start`: one fresh check per demo monitor every few
// seconds, through the real write path, waking the projector once committed. Rarely a monitor
// goes down for a few checks, so the live charts have something to show.
import type { DatabasePool } from 'slonik';
import { appendEvents, InvalidBatch } from '../eventLog/appendEvents.ts';
import { wakeAfterAppend, type Wake } from '../projector/queue.ts';
import type { Clock } from '../shared/clock.ts';
import type { Logger } from '../shared/logger.ts';
import { formatTimestamp } from '../shared/time.ts';
import { DEMO_MONITORS, DEMO_SLUG, demoCheckData, demoUniform, type CheckData } from './demoEvents.ts';

type DemoAgentDeps = Readonly<{
  db: DatabasePool;
  clock: Clock;
  wake: Wake;
  log: Pick<Logger, 'warn' | 'info'>;
  /** Time between rounds of checks (tests shorten it). */
  intervalMs?: number;
}>;

type DemoAgent = Readonly<{ stop: () => Promise<void> }>;

const DOWN_CHANCE = 1 / 100_000; // per monitor and round: about one short outage a day at 5 s
const DOWN_ROUNDS = [2, 6] as const; // how many rounds an outage lasts

export const startDemoAgent = (deps: DemoAgentDeps): DemoAgent => {
  const downFor = new Map<number, number>(); // monitor id → rounds of outage left
  let inFlight: Promise<void> | null = null;
  let lastError: string | null = null;

  const statusOf = (monitorId: number, atMs: number): CheckData['status'] => {
    const left = downFor.get(monitorId) ?? 0;
    if (left === 0 && demoUniform(monitorId, atMs, 11) < DOWN_CHANCE) {
      const [min, max] = DOWN_ROUNDS;
      downFor.set(monitorId, min + Math.floor(demoUniform(monitorId, atMs, 12) * (max - min + 1)));
    }
    const rounds = downFor.get(monitorId) ?? 0;
    if (rounds === 0) return 'up';
    downFor.set(monitorId, rounds - 1);
    return 'down';
  };

  const round = async () => {
    const now = deps.clock();
    const atMs = Math.floor(now.getTime() / 1000) * 1000;
    const events = DEMO_MONITORS.map((monitor) => ({
      type: 'check.recorded',
      page: DEMO_SLUG,
      at: formatTimestamp(atMs),
      data: demoCheckData(monitor, atMs, statusOf(monitor.id, atMs)),
    }));
    try {
      await appendEvents(deps.db, events, {
        now,
        onCommitted: (result) =>
          wakeAfterAppend(deps.wake, result.pages, (error) => {
            deps.log.warn({ err: (error as Error).message }, 'demo agent: wake-up failed');
          }),
      });
      if (lastError !== null) deps.log.info('demo agent: appending checks again');
      lastError = null;
    } catch (error) {
      // Keep going (the database may come back); say so once per distinct problem, not every round.
      const message =
        error instanceof InvalidBatch
          ? (error.details[0]?.message ?? error.message)
          : (error as Error).message;
      if (message !== lastError) deps.log.warn({ err: message }, 'demo agent: could not append checks');
      lastError = message;
    }
  };

  const timer = setInterval(() => {
    if (inFlight !== null) return; // a slow append: skip this round rather than pile up
    inFlight = round().finally(() => {
      inFlight = null;
    });
  }, deps.intervalMs ?? 5_000);
  timer.unref();

  return {
    stop: async () => {
      clearInterval(timer);
      await inFlight;
    },
  };
};
