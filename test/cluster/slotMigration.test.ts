// Resharding under traffic: a partition's hash slot moves to another master while events are
// appended and projected and the API is read, and the models still equal a rebuild from the log.
// Runs in the `cluster` project only (a local 3-master Redis Cluster, test/support/clusterSetup.ts).
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { readActive } from '../../src/store/control/versions.ts';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { createReadRedis } from '../../src/runtime/clients.ts';
import { elevenApiPaths } from '../support/apiPaths.ts';
import { moveSlot } from '../support/moveSlot.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { dumpVersion } from '../support/readModels.ts';
import { scenario } from '../support/scenario.ts';
import { testClusterNodes, testRedisTarget } from '../support/testEnv.ts';

const PARTITIONS = 3;
const READ_PATHS = [
  ...elevenApiPaths('alpha', 1),
  ...elevenApiPaths('bravo', 11),
  ...elevenApiPaths('charlie', 21),
];

const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

describe.runIf(testClusterNodes())('moving a hash slot between masters while traffic runs', () => {
  let env: ProjectorEnv;
  let readRedis: RedisClient;
  let api: ReturnType<typeof request>;
  const pending = chunks(scenario('2026-11-22T09:00:00Z', 90), 100);
  /** Every status each path answered during the run. */
  const seen = new Map<string, Set<number>>();
  let projectRetries = 0;
  let failedRuns = 0;

  /** The projector's job: project until caught up; a failed run is retried, as the queue would. */
  const projectRetrying = async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await env.project();
      } catch (error) {
        if (attempt >= 20) throw error;
        projectRetries += 1;
      }
    }
  };

  const readAll = async (into = seen) => {
    for (const path of READ_PATHS) {
      const { status } = await api.get(path);
      into.set(path, new Set([...(into.get(path) ?? []), status]));
    }
  };

  const appendNext = async (): Promise<boolean> => {
    const batch = pending.shift();
    if (!batch) return false;
    env.setNow(Math.max(...batch.map((e) => Date.parse((e as { at: string }).at))) + 30_000);
    await env.append(...batch);
    return true;
  };

  const step = async () => {
    if (await appendNext()) await projectRetrying();
  };

  /**
   * Traffic while a slot is split between two masters: a script or multi-key command on it gets
   * TRYAGAIN until the move goes on, so a projector run may fail (its job is retried, and the
   * fenced commit leaves nothing half written); single-key reads follow ASK redirections.
   */
  const duringMove = async () => {
    await appendNext();
    try {
      await env.project();
    } catch {
      failedRuns += 1;
    }
    await readAll();
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: PARTITIONS, now: '2026-11-22T09:00:00Z' });
    readRedis = createReadRedis(testRedisTarget());
    const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, PAGE_URL_TEMPLATE: URLS.pageUrlTemplate });
    api = request(
      buildApp({
        redis: readRedis,
        prefix: env.prefix,
        clock: env.now,
        config,
        log: pino({ level: 'silent' }),
      }),
    );
    await step();
    await step();
  });
  afterAll(async () => {
    readRedis.disconnect();
    await env.close();
  });

  it('serves, projects and equals a rebuild after a partition moved to another master', async () => {
    const nodes = testRedisTarget().redisClusterNodes!;
    // The partition of the page with incidents and late checks; a slot holds one whole partition.
    const tag = await env.tagOf(partitionOf('alpha', PARTITIONS));
    const slot = Number(await env.redis.call('CLUSTER', 'KEYSLOT', tag));
    const move = await moveSlot(nodes, slot, { batches: 3, between: duringMove });
    // The slot really moved, in several batches with traffic in between.
    expect(move.to).not.toBe(move.from);
    expect(move.batches).toBeGreaterThan(1);
    while (pending.length > 0) await step();
    await projectRetrying();

    // Once moved, every path answers as it does on one server (a plan may forbid one: 403/404);
    // during the move a read may also have found the page's keys split (503, as for a stalled
    // Redis, with Retry-After), never anything else.
    const after = new Map<string, Set<number>>();
    await readAll(after);
    const final = new Map([...after].map(([path, codes]) => [path, [...codes][0]!]));
    expect([...final.values()].filter((status) => status >= 500)).toEqual([]);
    const unexpected = [...seen].flatMap(([path, codes]) =>
      [...codes].filter((code) => code !== final.get(path) && code !== 503).map((code) => `${path} ${code}`),
    );
    expect(unexpected).toEqual([]);
    const unavailable = [...seen.values()].filter((codes) => codes.has(503)).length;

    const active = (await readActive(env.redis, env.prefix))!;
    const incremental = await dumpVersion(env.redis, env.prefix, active.version, true);
    const rebuilt = await rebuild(env.deps, { prefix: env.prefix, partitions: PARTITIONS, graceMs: 0 });
    expect(await dumpVersion(env.redis, env.prefix, rebuilt.version, true)).toEqual(incremental);
    console.info(
      `slot ${move.slot} moved ${move.from}→${move.to} (${move.keysMoved} keys, ${move.batches} batches); ` +
        `projector runs failed during moves: ${failedRuns}, retried after: ${projectRetries}, paths that answered 503 during the move: ${unavailable} of ${READ_PATHS.length}`,
    );
  });
});
