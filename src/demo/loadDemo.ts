// Loads the demo page through the real write path (appendEvents), in batches, in `at` order.
// Event ids are deterministic, so loading again at the same instant appends nothing; a demo
// page loaded at another instant is left alone (its history would interleave with ours).
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { appendEvents } from '../eventLog/appendEvents.ts';
import type { Clock } from '../shared/clock.ts';
import { DEMO_SLUG, demoAnchor, demoEventCount, demoEvents } from './demoEvents.ts';
import { MINUTE_MS } from '../shared/time.ts';

type ProgressStream = Readonly<{ write: (text: string) => unknown; isTTY?: boolean }>;

type LoadDemoDeps = Readonly<{
  db: DatabasePool;
  clock: Clock;
  progress: ProgressStream;
  /** Events per append transaction (appendEvents takes any size; 5,000 keeps each one short). */
  batchSize?: number;
}>;

export type LoadDemoResult = Readonly<{
  events: number;
  accepted: number;
  duplicates: number;
  skipped: boolean;
  seconds: number;
}>;

const PLAIN_STEPS = 4; // non-TTY: a line at 25 %, 50 %, 75 %, 100 %

const loadedElsewhen = async (db: DatabasePool, pageEventId: string): Promise<boolean> => {
  const found = await db.one(sql.type(z.object({ page: z.boolean(), same: z.boolean() }))`
    SELECT EXISTS (SELECT 1 FROM pages WHERE slug = ${DEMO_SLUG} AND NOT deleted) AS page,
           EXISTS (SELECT 1 FROM event_ids WHERE event_id = ${pageEventId}) AS same`);
  return found.page && !found.same;
};

/** Appends the demo page's events; throws what appendEvents throws (InvalidBatch would be a bug). */
export const loadDemo = async (deps: LoadDemoDeps): Promise<LoadDemoResult> => {
  const started = performance.now();
  const now = deps.clock();
  const nowMs = now.getTime();
  const seconds = () => Math.round(performance.now() - started) / 1000;
  if (await loadedElsewhen(deps.db, `demo.${(demoAnchor(nowMs) / MINUTE_MS).toString(36)}.page`)) {
    deps.progress.write('demo page already loaded earlier: leaving it as it is\n');
    return { events: 0, accepted: 0, duplicates: 0, skipped: true, seconds: seconds() };
  }
  const total = demoEventCount(nowMs);
  const batchSize = deps.batchSize ?? 5_000;
  const tty = deps.progress.isTTY === true;
  let shown = -1;
  const show = (done: number) => {
    const percent = Math.floor((100 * done) / total);
    const step = tty ? percent : Math.floor((percent * PLAIN_STEPS) / 100);
    if (step === shown) return;
    shown = step;
    if (tty) deps.progress.write(`\rloading demo: ${percent}%`);
    else if (step > 0) deps.progress.write(`loading demo: ${percent}%\n`);
  };
  let events = 0;
  let accepted = 0;
  let duplicates = 0;
  let batch: object[] = [];
  const flush = async () => {
    const result = await appendEvents(deps.db, batch, { now });
    events += batch.length;
    accepted += result.accepted;
    duplicates += result.duplicates;
    batch = [];
    show(events);
  };
  show(0);
  for (const event of demoEvents(nowMs)) {
    batch.push(event);
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  deps.progress.write(
    `${tty ? '\r' : ''}loading demo: ${accepted} events appended (${duplicates} already there) in ${seconds()} s\n`,
  );
  return { events, accepted, duplicates, skipped: false, seconds: seconds() };
};
