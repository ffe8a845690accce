// An SLA render spread over several script calls and fenced between them (another runner committed
// a batch meanwhile) must leave the pages it did not finish marked: the newer runner renders them,
// and the stored summaries equal a rebuild's byte for byte. The interleaving is forced at a chosen
// call, not left to timing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { withScripts } from '../../src/store/scripts.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { runPartition } from '../../src/projector/runPartition.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { dumpVersion } from '../support/readModels.ts';

// Enough pages that a full render of their summaries (about four years) needs several calls: a
// render commits its pages in chunks, each under the fence.
const PAGES = 30;
const MONITORS = 2;
const SLA_YEAR_KEY = /:sla:\d{4}$/;

/**
 * The same client, but once `before` says so, `between` runs after the first script call that
 * writes an SLA year hash (a render's call) and before any further call.
 */
const interleaved = (redis: RedisClient, between: () => Promise<void>) => {
  const state = { armed: false, fired: false, slaCalls: 0 };
  const target = withScripts(redis);
  const proxy = new Proxy(target, {
    get: (t, prop) => {
      if (prop === 'commitWrites')
        return async (numberOfKeys: number, ...rest: string[]) => {
          const applied = await t.commitWrites(numberOfKeys, ...rest);
          const keys = rest.slice(0, numberOfKeys);
          if (keys.some((key) => SLA_YEAR_KEY.test(key))) {
            state.slaCalls += 1;
            if (state.armed && !state.fired) {
              state.fired = true;
              await between();
            }
          }
          return applied;
        };
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
  return { redis: proxy, state };
};

describe('sla render fenced between its calls', () => {
  let env: ProjectorEnv;
  beforeEach(async () => {
    env = await startProjectorEnv({ partitions: 1, now: '2026-11-22T12:00:10Z' });
  });
  afterEach(() => env.close());

  it('keeps the page marked, so the newer runner renders it', async () => {
    const slugs = Array.from({ length: PAGES }, (_, p) => `big${String(p)}`);
    const ids = (p: number) => Array.from({ length: MONITORS }, (_, i) => p * MONITORS + i + 1);
    await env.append(
      ...slugs.flatMap((slug, p) => [
        pageConfigured(slug, { plan: 'business' }),
        ...ids(p).map((id) => monitorConfigured(slug, id)),
        ...ids(p).map((id) => check(slug, id, '2026-11-22T11:00:00Z', id % 7 === 0 ? 'down' : 'up', 90)),
      ]),
    );
    await env.project();
    // A new target changes every report of the pages: a full render.
    await env.append(...slugs.map((slug) => pageConfigured(slug, { plan: 'business', sla_target: 99.5 })));

    const ref = { prefix: env.prefix, version: (await readActive(env.redis, env.prefix))!.version };
    const partition = { ...ref, partition: 0, partitions: 1 };
    const racing = interleaved(env.redis, async () => {
      // Another runner commits a batch (a check that changes no report) and renders what is marked.
      await env.append(check('big0', 1, '2026-11-22T11:01:00Z', 'up', 95));
      await runPartition(env.deps, partition, { mode: 'continuous' });
    });
    racing.state.armed = true;
    const result = await runPartition({ ...env.deps, redis: racing.redis }, partition, {
      mode: 'continuous',
    });
    expect(racing.state.fired).toBe(true);
    expect(result.fenced).toBe(true); // its render was cut after its first call
    await env.project();

    const live = await dumpVersion(env.redis, env.prefix, ref.version);
    const rebuilt = await rebuild(env.deps, { prefix: env.prefix, partitions: 1, graceMs: 0 });
    const fresh = await dumpVersion(env.redis, env.prefix, rebuilt.version);
    // Every stored value that differs, named by key (and hash field): the reports are large.
    const differing = [...new Set([...fresh.keys(), ...live.keys()])].flatMap((key) => {
      const [a, b] = [live.get(key), fresh.get(key)];
      if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
        return a === b ? [] : [key];
      const fields = new Set([...Object.keys(a), ...Object.keys(b)]);
      return [...fields]
        .filter((f) => (a as Record<string, unknown>)[f] !== (b as Record<string, unknown>)[f])
        .map((f) => `${key} ${f}`);
    });
    expect([...fresh.keys()].some((key) => key.includes(':sla:2026'))).toBe(true);
    expect(differing).toEqual([]);
  });
});
