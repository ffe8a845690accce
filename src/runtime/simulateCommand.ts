// `npm run simulate -- --pages P --monitors M --rate R --duration S [--history DAYS] [--seed N]`:
// realistic traffic through the real write path, for demos and load tests.
import { parseArgs } from 'node:util';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { appendEvents } from '../eventLog/appendEvents.ts';
import { migrate } from '../eventLog/migrate.ts';
import { createProjectorQueue, createWake, wakeAfterAppend } from '../projector/queue.ts';
import { createActiveVersionReader } from '../store/control/activeVersionReader.ts';
import { DAY_MS, MINUTE_MS, formatTimestamp } from '../shared/time.ts';
import { createClients } from './clients.ts';
import {
  buildLanes,
  check,
  roundRobin,
  statusStepper,
  storyTeller,
  type Emitted,
} from './simulatedTraffic.ts';

const USAGE = `usage: npm run simulate -- --pages P --monitors M --rate R --duration S [--history DAYS] [--seed N]
  --pages     pages to create (1–10000), slugs sim-<seed>-<n>
  --monitors  monitors per page (1–1000; pages × monitors ≤ 999999)
  --rate      events per second to offer (1–1000000)
  --duration  seconds of live traffic (0–86400)
  --history   days of checks at 60 s to append first (0–400, default 0)
  --seed      1–9000000 (default random); the same seed names the same pages and monitors`;

const Args = z.object({
  pages: z.coerce.number().int().min(1).max(10_000),
  monitors: z.coerce.number().int().min(1).max(1000),
  rate: z.coerce.number().int().min(1).max(1_000_000),
  duration: z.coerce.number().min(0).max(86_400),
  history: z.coerce.number().min(0).max(400).default(0),
  seed: z.coerce.number().int().min(1).max(9_000_000).optional(),
});
type Args = z.infer<typeof Args>;

const BATCH_MAX = 5_000;
const TICK_MS = 100;
const parse = (argv: string[]): Args | string => {
  try {
    const { values } = parseArgs({
      args: argv,
      options: Object.fromEntries(
        ['pages', 'monitors', 'rate', 'duration', 'history', 'seed'].map((k) => [k, { type: 'string' }]),
      ),
      strict: true,
      allowPositionals: false,
    });
    const missing = ['pages', 'monitors', 'rate', 'duration'].filter((k) => values[k] === undefined);
    if (missing.length > 0) return missing.map((k) => `--${k} is required`).join('\n');
    const parsed = Args.safeParse(values);
    if (!parsed.success)
      return parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n');
    if (parsed.data.pages * parsed.data.monitors > 999_999) return 'pages × monitors must be at most 999999';
    return parsed.data;
  } catch (error) {
    return (error as Error).message;
  }
};

const pageExists = async (db: DatabasePool, slug: string): Promise<boolean> =>
  (await db.maybeOne(
    sql.type(z.object({ one: z.number() }))`SELECT 1 AS one FROM pages WHERE slug = ${slug}`,
  )) !== null;

/** A seed whose first page does not exist yet; null when the given one is taken. */
const chooseSeed = async (db: DatabasePool, wanted: number | undefined): Promise<number | null> => {
  if (wanted !== undefined) return (await pageExists(db, `sim-${wanted}-1`)) ? null : wanted;
  for (;;) {
    const seed = 1 + Math.floor(Math.random() * 9_000_000);
    if (!(await pageExists(db, `sim-${seed}-1`))) return seed;
  }
};

export const simulateCommand = async (config: Config, argv: string[]): Promise<number> => {
  const args = parse(argv);
  if (typeof args === 'string') {
    console.error(`${args}\n${USAGE}`);
    return 2;
  }
  await migrate(config.databaseUrl);
  const clients = await createClients(config, 'simulate');
  const queue = createProjectorQueue(clients.queueRedis, config.redisPrefix);
  const tty = process.stderr.isTTY;
  let stopping = false;
  const onSigint = () => void (stopping = true);
  process.once('SIGINT', onSigint);
  try {
    const seed = await chooseSeed(clients.db, args.seed);
    if (seed === null) {
      console.error(`seed ${args.seed} is taken (page sim-${args.seed}-1 exists): choose another --seed`);
      return 2;
    }
    const wake = createWake(queue, createActiveVersionReader(clients.redis, config.redisPrefix));
    const warn = (error: unknown) => {
      console.error(
        `simulate: projectors not woken (${(error as Error).message}); they catch up on their next poll`,
      );
    };
    // Concurrent appends may create the same month's check partition: migration 0003 makes that safe.
    const appendOne = async (events: readonly Emitted[]): Promise<number> => {
      const result = await appendEvents(clients.db, events, {
        now: new Date(),
        onCommitted: (r) => wakeAfterAppend(wake, r.pages, warn),
      });
      return result.accepted;
    };
    const append = async (events: readonly Emitted[]): Promise<number> => {
      let accepted = 0;
      for (let i = 0; i < events.length; i += BATCH_MAX)
        accepted += await appendOne(events.slice(i, i + BATCH_MAX));
      return accepted;
    };
    const lanes = buildLanes(args, seed);
    const startMs = Date.now();
    const historyFrom = Math.floor((startMs - args.history * DAY_MS) / MINUTE_MS) * MINUTE_MS;
    const setupAt = formatTimestamp(historyFrom - MINUTE_MS);
    console.log(
      `simulating pages sim-${seed}-1 … sim-${seed}-${args.pages} (seed ${seed}), ${args.pages * args.monitors} monitors`,
    );
    for (const lane of lanes) {
      const setup: Emitted[] = lane.pages.map((page) => ({
        type: 'page.configured',
        page,
        at: setupAt,
        data: { title: `Simulated ${page}`, plan: 'growth' },
      }));
      for (const m of lane.monitors)
        setup.push({
          type: 'monitor.configured',
          page: m.page,
          at: setupAt,
          data: {
            monitor_id: m.id,
            name: m.name,
            type: m.type,
            impact: m.impact,
            position: m.id % 1_000_000,
          },
        });
      await append(setup);
    }

    const statusOf = statusStepper();
    if (args.history > 0) {
      const slots = Math.floor((startMs - historyFrom) / MINUTE_MS);
      const total = slots * args.pages * args.monitors;
      let done = 0;
      let shown = -1;
      const started = performance.now();
      await Promise.all(
        lanes.map(async (lane) => {
          let batch: Emitted[] = [];
          for (let slot = historyFrom; slot < startMs && !stopping; slot += MINUTE_MS) {
            for (const m of lane.monitors) {
              const at = slot + m.offsetMs;
              if (at < startMs) batch.push(check(m, at, statusOf(m, at)));
            }
            if (batch.length >= BATCH_MAX || slot + MINUTE_MS >= startMs) {
              const appended = await append(batch); // not `done += await …`: the lanes interleave
              done += appended;
              batch = [];
              const percent = Math.min(100, Math.floor((100 * done) / Math.max(1, total)));
              const step = tty ? percent : Math.floor(percent / 25); // plain output: a line per quarter
              if (step !== shown) {
                shown = step;
                process.stderr.write(
                  `${tty ? '\r' : ''}history: ${percent}% (${done} checks)${tty ? '' : '\n'}`,
                );
              }
            }
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      if (tty) process.stderr.write('\n');
      console.log(
        `history: ${done} checks in ${seconds.toFixed(1)} s (${Math.round(done / seconds)} events/s)`,
      );
    }

    // Live traffic: every 100 ms each lane appends what its share of the rate owes by then.
    const tell = storyTeller(seed);
    let sent = 0;
    let lastShown = 0;
    const liveStarted = performance.now();
    const deadline = liveStarted + args.duration * 1000;
    await Promise.all(
      lanes.map(async (lane, l) => {
        const rate = args.rate / lanes.length;
        let cursor = 0;
        let laneSent = 0;
        for (let tick = 1; !stopping; tick += 1) {
          const due = Math.min(deadline, liveStarted + tick * TICK_MS);
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          // When appends fall behind, the backlog is dropped rather than piled up: the achieved
          // rate printed at the end says what the write path could take.
          const owed = Math.floor((rate * (due - liveStarted)) / 1000) - laneSent;
          const events: Emitted[] = [];
          const nowMs = Date.now();
          for (let i = 0; i < Math.min(owed, rate); i += 1) {
            if (Math.random() < 0.002) events.push(tell(roundRobin(lane.pages, cursor), nowMs));
            else {
              const monitor = roundRobin(lane.monitors, cursor);
              events.push(check(monitor, nowMs, statusOf(monitor, nowMs)));
            }
            cursor += 1;
          }
          if (events.length > 0) await append(events);
          laneSent += owed;
          sent += events.length;
          const elapsed = (performance.now() - liveStarted) / 1000;
          if (tty && l === 0 && elapsed - lastShown >= 1) {
            lastShown = elapsed;
            process.stderr.write(
              `\rlive: ${sent} events, ${Math.round(sent / elapsed)} events/s (offered ${args.rate}/s)   `,
            );
          }
          if (due >= deadline) break;
        }
      }),
    );
    const seconds = (performance.now() - liveStarted) / 1000;
    if (tty) process.stderr.write('\n');
    if (args.duration > 0)
      console.log(
        `live: ${sent} events in ${seconds.toFixed(1)} s: ${Math.round(sent / Math.max(seconds, 0.001))} events/s achieved (offered ${args.rate}/s)`,
      );
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
    await queue.close();
    await clients.close();
  }
};
