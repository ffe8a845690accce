// `npm run rebuild` beside a running rebuild (the workers' own after Redis lost its data, or
// another operator's) waits for it, says so, and succeeds with its outcome; when that rebuild
// fails it builds itself.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { takeRebuildLock } from '../../src/store/control/rebuildLock.ts';
import { activate, createVersion, readActive } from '../../src/store/control/versions.ts';
import { createProjectorQueue } from '../../src/projector/queue.ts';
import { rebuildOrJoin } from '../../src/projector/rebuildOrJoin.ts';
import { replayLog } from '../../src/projector/replayLog.ts';
import { runPartition } from '../../src/projector/runPartition.ts';
import { rebuildWith } from '../../src/runtime/rebuildCommand.ts';
import { twoPagesWithChecks } from '../support/events.ts';
import { dumpVersion } from '../support/readModels.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';

describe('a rebuild beside a running rebuild', () => {
  let env: ProjectorEnv;
  const options = () => ({ prefix: env.prefix, partitions: 2, graceMs: 0 });

  /** What a running rebuild does once it holds the lock: build a version, activate it, let go. */
  const otherRebuild = async (lock: NonNullable<Awaited<ReturnType<typeof takeRebuildLock>>>) => {
    const version = await createVersion(env.redis, env.prefix, 2, env.now());
    await replayLog(env.deps, { prefix: env.prefix, version, partitions: 2 });
    for (let partition = 0; partition < 2; partition += 1) {
      const ref = { prefix: env.prefix, version, partition, partitions: 2 };
      while (!(await runPartition(env.deps, ref, { mode: 'rebuild' })).caughtUp);
    }
    await activate(env.redis, env.prefix, { next: { version, partitions: 2 }, now: env.now(), lock });
    await lock.release();
    return version;
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: '2026-11-22T12:00:00Z' });
    await env.append(...twoPagesWithChecks('down'));
    await env.project();
  });
  afterAll(async () => {
    await createProjectorQueue(env.redis, env.prefix).queue.obliterate({ force: true });
    await env.close();
  });

  it('waits for it and joins the version it activated', async () => {
    const expected = await dumpVersion(
      env.redis,
      env.prefix,
      (await readActive(env.redis, env.prefix))!.version,
    );
    const running = (await takeRebuildLock(env.redis, env.prefix))!;
    let waited = 0;
    const joining = rebuildOrJoin(env.deps, options(), { pollMs: 20, onWait: () => (waited += 1) });
    await vi.waitFor(() => expect(waited).toBe(1));
    const built = await otherRebuild(running);
    const outcome = await joining;
    expect(outcome).toEqual({ kind: 'joined', active: { version: built, partitions: 2 } });
    expect(await readActive(env.redis, env.prefix)).toEqual({ version: built, partitions: 2 });
    expect(await dumpVersion(env.redis, env.prefix, built)).toEqual(expected);
  });

  it('builds itself when the running rebuild let go without activating anything', async () => {
    const before = (await readActive(env.redis, env.prefix))!;
    const running = (await takeRebuildLock(env.redis, env.prefix))!;
    let waited = 0;
    const joining = rebuildOrJoin(env.deps, options(), { pollMs: 20, onWait: () => (waited += 1) });
    await vi.waitFor(() => expect(waited).toBe(1));
    await running.release(); // it failed
    const outcome = await joining;
    expect(outcome.kind).toBe('built');
    expect(outcome.active.version).toBeGreaterThan(before.version);
    expect(await readActive(env.redis, env.prefix)).toEqual(outcome.active);
  });

  it('npm run rebuild says it waited and exits 0', async () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: URLS.baseUrl,
      REDIS_PREFIX: env.prefix,
      PROJECTOR_PARTITIONS: '2',
    });
    const clients = {
      db: env.t.db,
      redis: env.redis,
      readRedis: env.redis,
      queueRedis: env.redis,
      log: pino({ level: 'silent' }),
      close: () => Promise.resolve(),
    };
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      const running = (await takeRebuildLock(env.redis, env.prefix))!;
      const command = rebuildWith(config, clients);
      await vi.waitFor(() =>
        expect(lines).toContain('another rebuild is running; waiting for it to finish…'),
      );
      const built = await otherRebuild(running);
      expect(await command).toBe(0);
      expect(lines[1]).toMatch(
        new RegExp(
          `^the rebuild that was running finished: version ${built} \\(2 partitions\\) is active \\(waited [0-9.]+ s\\)$`,
        ),
      );
    } finally {
      log.mockRestore();
    }
  });
});
