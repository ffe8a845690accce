// The offered ingest load of the read-under-load phase, in its own process
// (`node --import tsx bench/offerChecks.ts`): every 100 ms, that tick's share of BENCH_RATE checks
// over the monitors of BENCH_LOAD_PAGES, appended and woken as the HTTP ingest does. Run apart
// from the load generator so that building and appending batches never delays the event loop
// that times the HTTP answers. SIGUSR1 pauses the load, SIGUSR2 resumes it. Prints "offering"
// once started and, when stopped (SIGTERM), the rate it achieved while offering as
// {"achieved": n}.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { createDb } from '../src/eventLog/createDb.ts';
import { createProjectorQueue } from '../src/projector/queue.ts';
import { benchMonitors, checkEvent } from './fixtures.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`bench/offerChecks.ts needs ${name}`);
  return value;
};

/** BENCH_LOAD_PAGES: `[{"page": slug, "firstId": n, "count": n}, …]`. */
const pages = JSON.parse(env('BENCH_LOAD_PAGES')) as { page: string; firstId: number; count: number }[];
const monitors = pages.flatMap(({ page, firstId, count }) => benchMonitors(page, firstId, count));
const rate = Number(env('BENCH_RATE'));
const partitions = Number(env('PROJECTOR_PARTITIONS'));

const db = await createDb(env('DATABASE_URL'), { maximumPoolSize: 2 });
const queueRedis = new Redis(env('REDIS_URL'), { maxRetriesPerRequest: null });
const queue = createProjectorQueue(queueRedis, env('REDIS_PREFIX'));

let offering = true;
let paused = false;
process.once('SIGTERM', () => (offering = false));
process.on('SIGUSR1', () => (paused = true));
process.on('SIGUSR2', () => (paused = false));
console.log('offering');
let total = 0;
let activeMs = 0;
// A segment runs from a start (or resume) to a pause: within it, `rate` events per second.
while (offering) {
  const began = performance.now();
  let sent = 0;
  for (let tick = 1; offering && !paused; tick += 1) {
    await sleep(Math.max(0, began + tick * 100 - performance.now()));
    const owed = Math.round((rate * tick) / 10) - sent;
    const nowMs = Date.now();
    const batch = Array.from({ length: owed }, (_, i) =>
      checkEvent(monitors[(total + i) % monitors.length]!, nowMs),
    );
    sent += owed;
    total += owed;
    if (batch.length > 0)
      await appendEvents(db, batch, {
        now: new Date(),
        onCommitted: (r) => queue.wakePages(r.pages, partitions),
      });
  }
  activeMs += performance.now() - began;
  while (offering && paused) await sleep(20);
}
console.log(JSON.stringify({ achieved: total / (activeMs / 1000) }));
await queue.close();
queueRedis.disconnect();
await db.end();
process.exit(0);
