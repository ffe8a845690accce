// `npx tsx bench/projectMicro.ts [batches]`: the projector's own cost per event, without
// PostgreSQL or a worker: batches of 1,000 in-order checks of 8 pages × 25 monitors (the shape of
// the ingest figure) go through load → plan → commit (projectBatch, commitBatch) against Redis,
// under a prefix of their own, cut to fit one commit as the projector cuts them (planWithinCommit). Prints events/s and the Node CPU time per event, which other load
// on the machine disturbs far less than the wall-clock rate. Profile it with
// `node --cpu-prof --import tsx bench/projectMicro.ts`.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { LogRow } from '../src/eventLog/readAfter.ts';
import { commitBatch, commitWrites, encodeBatch } from '../src/store/control/commitWrites.ts';
import { checkpointAfter, planWithinCommit } from '../src/projector/planWithinCommit.ts';
import { projectBatch } from '../src/projector/projectBatch.ts';
import { dropRedisPrefix, redisUrl } from './benchEnv.ts';

const PAGES = 8;
const MONITORS = 25;
const BATCH = 1000;
const batches = Number(process.argv[2] ?? 150);

let position = 0;
const row = (type: string, page: string, at: number, data: object): LogRow => ({
  tx: '1',
  position: String(++position),
  type,
  page,
  at,
  recordedAt: at,
  data,
});
const monitorId = (page: number, monitor: number) => page * 100 + monitor + 1;

const start = Date.now() - 3 * 86_400_000;
const setup: LogRow[] = [];
for (let p = 0; p < PAGES; p += 1) {
  const page = `ing-${p}`;
  const settings = {
    title: page,
    plan: 'growth',
    custom_domain: null,
    auth_token_hash: null,
    blocked: false,
  };
  setup.push(row('page.configured', page, start, settings));
  for (let m = 0; m < MONITORS; m += 1)
    setup.push(
      row('monitor.configured', page, start, { monitor_id: monitorId(p, m), name: `m${m}`, impact: 'major' }),
    );
}
/** Every monitor checked once a minute, in order, from the setup on. */
const checkBatches: LogRow[][] = [];
for (let b = 0, minute = 1; b < batches; b += 1) {
  const rows: LogRow[] = [];
  for (; rows.length < BATCH; minute += 1)
    for (let i = 0; i < PAGES * MONITORS && rows.length < BATCH; i += 1) {
      const [p, m] = [Math.floor(i / MONITORS), i % MONITORS];
      const data = { monitor_id: monitorId(p, m), status: 'up', response_time_ms: 100 + m };
      rows.push(row('check.recorded', `ing-${p}`, start + minute * 60_000, data));
    }
  checkBatches.push(rows);
}

const redis = new Redis(redisUrl());
const prefix = `spm${randomBytes(5).toString('hex')}`;
const tag = `${prefix}:{v1.p0}`;
let checkpoint = 0;
const planRows = async (rows: readonly LogRow[]) => {
  const plan = await projectBatch(redis, { tag, rows, now: Date.now() });
  if (plan.deadLetters.length > 0) throw new Error(`dead letters: ${plan.deadLetters[0]!.error}`);
  return { writes: plan.writes, encoded: encodeBatch(tag, plan.writes) };
};
const nextFence = () => {
  checkpoint += 1;
  return { tag, expected: `1:${checkpoint - 1}`, next: `1:${checkpoint}` };
};
const project = async (rows: readonly LogRow[]) => {
  for (let rest = rows; rest.length > 0;) {
    const batch = await planWithinCommit(
      rest,
      checkpointAfter(rest.at(-1)!),
      planRows,
      (p) => p.encoded.load,
    );
    if (!(await commitBatch(redis, nextFence(), batch.plan.encoded))) throw new Error('fenced');
    rest = rest.slice(batch.rows.length);
  }
};
try {
  await redis.set(`${tag}:ckpt`, '1:0');
  // Every page and monitor at once: more than one batch's commit, so in calls of their own.
  const { writes } = await planRows(setup);
  if (!(await commitWrites(redis, { tag, expected: '1:0', next: null }, writes))) throw new Error('fenced');
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const rows of checkBatches) await project(rows);
  const used = process.cpuUsage(cpu);
  const events = batches * BATCH;
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${events.toLocaleString('en-US')} checks: ${Math.round(events / seconds).toLocaleString('en-US')} events/s, ` +
      `Node CPU ${((used.user + used.system) / events).toFixed(2)} µs per event`,
  );
} finally {
  await dropRedisPrefix(redis, prefix);
  redis.disconnect();
}
