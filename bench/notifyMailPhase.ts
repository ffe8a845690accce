// `npm run bench -- --only notify-mail`: one incident update to the email subscribers of a page
// (10,000, then 100,000), planned and sent by the real worker process (its notifier, the email Sender,
// DKIM-signed mail through the SMTP pool) to a local SMTP server: append → last mail accepted, and
// the worker's peak RSS during the run over its idle RSS before the append. Each size has a fresh
// worker: the growth at 100,000 ÷ the growth at 10,000 shows the memory is bounded (near 1), not
// proportional (10); a last run sends to 100,000 again with V8's old space capped at 96 MB.
// `--quick`: 1,000 and 10,000.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'slonik';
import { SMTPServer } from 'smtp-server';
import { appendEvents } from '../src/eventLog/appendEvents.ts';
import { startBenchEnv, type BenchEnv } from './benchEnv.ts';
import { startWorker, stopAll } from './children.ts';
import type { Figure } from './report.ts';

/** A run may take this long before it counts as stuck. */
const RUN_LIMIT_MS = 20 * 60_000;

const log = (line: string) => void process.stderr.write(`${line}\n`);

/** An SMTP server that accepts everything and only counts: the bench measures the sender. */
const startCountingSmtp = async () => {
  const state = { accepted: 0, lastAt: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, callback) => {
      stream.on('end', () => {
        state.accepted += 1;
        state.lastAt = Date.now();
        callback();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${String(port)}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** `n` active email subscribers of `page`, confirmed an hour ago, in one statement. */
const insertSubscribers = async (env: BenchEnv, page: string, n: number): Promise<void> => {
  await env.db.query(sql.unsafe`
    INSERT INTO subscribers (id, page, channel, target, target_digest, origin, state, confirmed_at)
    SELECT 'sub_' || ${page} || '_' || lpad(g::text, 7, '0'), ${page}, 'email',
      'reader' || g || '@bench.example', sha256(convert_to(${page} || ':reader' || g || '@bench.example', 'UTF8')),
      'operator', 'active', now() - interval '1 hour'
    FROM generate_series(1, ${n}) AS g`);
  // Statistics as a table grown over time has them: without, the planner takes the page's active
  // subscribers for a handful and claims due rows by walking every subscriber.
  await env.db.query(sql.unsafe`ANALYZE subscribers`);
};

/** kB of a /proc/<pid>/status line (VmRSS, VmHWM). */
const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const line = readFileSync(`/proc/${String(pid)}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN);
};

type SizeRun = Readonly<{ subscribers: number; lastMs: number; idleMb: number; peakMb: number }>;

/**
 * The last run's worker has V8's old space capped this low: its live heap stays under it while it
 * sends to 100,000 (the planned rows alone took 64 MB when a batch held them all at once).
 */
const CAPPED_OLD_SPACE_MB = 96;

const runSize = async (
  env: BenchEnv,
  smtp: Awaited<ReturnType<typeof startCountingSmtp>>,
  workerEnv: Record<string, string>,
  subscribers: number,
  label: string,
): Promise<SizeRun> => {
  const page = `mail-${label}`;
  const at = () => new Date().toISOString();
  // The incident was opened an hour ago (too old to be news: nobody is told): the run is one update.
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  await appendEvents(
    env.db,
    [
      { type: 'page.configured', page, at: hourAgo, data: { title: 'Bench', plan: 'growth' } },
      {
        type: 'incident.opened',
        page,
        at: hourAgo,
        data: { incident_id: 'bench-1', title: 'Bench', message: 'Looking into it' },
      },
    ],
    { now: new Date() },
  );
  await insertSubscribers(env, page, subscribers);
  const worker = await startWorker(workerEnv);
  await sleep(5_000); // startup settled: the idle RSS the run is measured against
  const idleKb = statusKb(worker.pid, 'VmRSS');
  writeFileSync(`/proc/${String(worker.pid)}/clear_refs`, '5'); // VmHWM from here on
  const before = smtp.state.accepted;
  const appended = Date.now();
  await appendEvents(
    env.db,
    [
      {
        type: 'incident.updated',
        page,
        at: at(),
        data: { incident_id: 'bench-1', state: 'identified', message: 'Found it' },
      },
    ],
    { now: new Date() },
  );
  let reported = appended;
  while (smtp.state.accepted < before + subscribers) {
    if (Date.now() - appended > RUN_LIMIT_MS)
      throw new Error(`${String(smtp.state.accepted - before)} of ${String(subscribers)} mails after 20 min`);
    await sleep(50);
    const done = smtp.state.accepted - before;
    if (Date.now() - reported >= 2_000) {
      reported = Date.now();
      const rss = (statusKb(worker.pid, 'VmRSS') / 1024).toFixed(0);
      log(
        `  ${String(done)} mails after ${((Date.now() - appended) / 1000).toFixed(0)} s, worker RSS ${rss} MB`,
      );
    }
  }
  const run = {
    subscribers,
    lastMs: smtp.state.lastAt - appended,
    idleMb: idleKb / 1024,
    peakMb: statusKb(worker.pid, 'VmHWM') / 1024,
  };
  await worker.stop();
  return run;
};

export const runNotifyMailBench = async (
  quick: boolean,
  format: (figures: readonly Figure[]) => string,
): Promise<void> => {
  const [small, large] = quick ? [1_000, 10_000] : [10_000, 100_000];
  const env = await startBenchEnv();
  const smtp = await startCountingSmtp();
  const keyFile = join(mkdtempSync(join(tmpdir(), 'notify-mail-bench-')), 'dkim.pem');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const workerEnv = {
    REDIS_URL: env.redisUrl,
    REDIS_PREFIX: env.prefix,
    DATABASE_URL: env.url,
    PROJECTOR_PARTITIONS: '2',
    MAIL_URL: smtp.url,
    MAIL_FROM: 'Bench Status <status@bench.example>',
    MAIL_DKIM_DOMAIN: 'bench.example',
    MAIL_DKIM_SELECTOR: 'bench',
    MAIL_DKIM_KEY_FILE: keyFile,
    MAIL_TOKEN_SECRET: 'b'.repeat(32),
  };
  try {
    const runs: SizeRun[] = [];
    const capped = { NODE_OPTIONS: `--max-old-space-size=${String(CAPPED_OLD_SPACE_MB)}` };
    for (const [size, label, extra] of [
      [small, String(small), {}],
      [large, String(large), {}],
      [large, `${String(large)}-capped`, capped],
    ] as const) {
      log(`notify-mail: one incident update to ${String(size)} email subscribers (${label})`);
      runs.push(await runSize(env, smtp, { ...workerEnv, ...extra }, size, label));
    }
    const [first, second, third] = runs as [SizeRun, SizeRun, SizeRun];
    const growth = (run: SizeRun) => run.peakMb - run.idleMb;
    const ratio = growth(second) / growth(first);
    const figure = (name: string, value: number, unit: string, extra: Partial<Figure> = {}): Figure => ({
      section: 'notifyMail',
      name,
      unit,
      value,
      baseline: null,
      ratio: null,
      ...extra,
    });
    const perSize = (run: SizeRun): Figure[] => {
      const n = run.subscribers.toLocaleString('en-US');
      return [
        figure(`${n}: append → last mail accepted`, run.lastMs / 1000, 's', {
          ...(run === second ? { target: { text: '≤ 600 s', met: run.lastMs <= 600_000 } } : {}),
        }),
        figure(`${n}: mails per second`, run.subscribers / (run.lastMs / 1000), '/s'),
        figure(`${n}: worker RSS idle before the append`, run.idleMb, 'MB'),
        figure(`${n}: worker peak RSS during the run`, run.peakMb, 'MB'),
      ];
    };
    console.log(
      [
        `npm run bench -- ${quick ? '--quick ' : ''}--only notify-mail: one incident update to ${small.toLocaleString('en-US')}, then ${large.toLocaleString('en-US')} email subscribers (DKIM-signed, a fresh worker each)`,
        format([
          ...perSize(first),
          ...perSize(second),
          figure(
            `${large.toLocaleString('en-US')}, V8 old space capped at ${String(CAPPED_OLD_SPACE_MB)} MB: append → last mail`,
            third.lastMs / 1000,
            's',
          ),
          figure(
            `${large.toLocaleString('en-US')}, capped: worker peak RSS during the run`,
            third.peakMb,
            'MB',
          ),
          figure(`peak RSS growth over idle, ${large.toLocaleString('en-US')}`, growth(second), 'MB', {
            baseline: { name: small.toLocaleString('en-US'), value: growth(first) },
            ratio,
            // A quick run's 1,000 last seconds (12–16 MB of growth in every run, where 10,000 ranged
            // 24–110 MB as V8 collected its old space): no fair baseline for a target.
            ...(quick
              ? {}
              : { target: { text: 'ratio ≤ 2 (bounded, not 10× proportional)', met: ratio <= 2 } }),
          }),
        ]),
      ].join('\n'),
    );
  } finally {
    await stopAll();
    await smtp.close();
    await env.close();
  }
};
