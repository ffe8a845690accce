// The edge purger against local stand-ins of Fastly's and Cloudflare's purge APIs
// (test/support/edgeApis.ts checks every call against the vendors' documented shapes), fed by a
// partition's purge outbox in the real Redis: soft purge by key, the per-call key limits, auth
// headers, coalescing of a flapping page, failures retried with backoff and counted on /metrics,
// and a 10-minute outage of the API that loses nothing.
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createEdgePurger, type EdgePurger } from '../../src/edge/edgePurger.ts';
import { purgeTargets } from '../../src/edge/providers.ts';
import { partitionKeys, partitionTag } from '../../projections/store/control/keys.ts';
import { queuePurges } from '../../projections/store/control/purgeWrites.ts';
import { commitWrites } from '../../src/store/control/commitWrites.ts';
import type { RedisClient } from '../../src/store/redisClient.ts';
import { startCloudflareStandIn, startFastlyStandIn } from '../support/edgeApis.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from '../support/testEnv.ts';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const waitFor = async (what: string, done: () => boolean | Promise<boolean>) => {
  for (let tries = 0; !(await done()); tries += 1) {
    if (tries > 400) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
};

/** The value of a counter's child on the registry `/metrics` serves. */
const counter = async (registry: Registry, name: string, provider: string): Promise<number> => {
  const metric = await registry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => v.labels['provider'] === provider)?.value ?? 0;
};

const keys = (count: number, prefix = 'page-p') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('purging Fastly and Cloudflare from the outbox', () => {
  let fastly: Awaited<ReturnType<typeof startFastlyStandIn>>;
  let cloudflare: Awaited<ReturnType<typeof startCloudflareStandIn>>;
  let redis: RedisClient;
  let prefix: string;
  let tag: string;
  let registry: Registry;
  let purger: EdgePurger;
  let checkpoint = 0;

  beforeAll(async () => {
    fastly = await startFastlyStandIn('SU1Z0isxPaozGVKXdv0eY', 'fastly-token-0123456789');
    cloudflare = await startCloudflareStandIn('023e105f4ecef8ad9ca31a8372d0c353', 'cloudflare-token-0123');
    redis = testRedis();
  });
  afterAll(async () => {
    await fastly.close();
    await cloudflare.close();
    redis.disconnect();
  });

  /** A commit that queues `purged` (hard or soft) in the partition's outbox, as the projector's do. */
  const commit = async (purged: readonly string[], hard = false) => {
    const expected = String(checkpoint);
    checkpoint += 1;
    const writes = queuePurges(
      tag,
      hard ? { hard: purged, soft: [] } : { hard: [], soft: purged },
      Date.now(),
    );
    expect(await commitWrites(redis, { tag, expected, next: String(checkpoint) }, writes)).toBe(true);
    purger.queued(tag);
  };

  const start = async (
    env: Record<string, string>,
    options: Partial<Record<'coalesceMs' | 'sweepMs' | 'firstRetryMs' | 'maxRetryMs', number>> & {
      clock?: () => number;
    } = {},
  ) => {
    const config = loadConfig({
      EDGE_PURGE: 'fastly,cloudflare',
      FASTLY_SERVICE_ID: 'SU1Z0isxPaozGVKXdv0eY',
      FASTLY_API_TOKEN: 'fastly-token-0123456789',
      FASTLY_API_URL: fastly.url,
      CLOUDFLARE_ZONE_ID: '023e105f4ecef8ad9ca31a8372d0c353',
      CLOUDFLARE_API_TOKEN: 'cloudflare-token-0123',
      CLOUDFLARE_API_URL: cloudflare.url,
      ...env,
    });
    fastly.calls.length = 0;
    cloudflare.calls.length = 0;
    prefix = freshRedisPrefix();
    tag = partitionTag(prefix, 1, 0);
    checkpoint = 0;
    await redis.set(partitionKeys(tag).checkpoint, '0');
    registry = new Registry();
    purger = createEdgePurger(purgeTargets(config.edge), {
      redis,
      prefix,
      partitions: () => Promise.resolve({ version: 1, tags: [tag] }),
      registry,
      log,
      firstRetryMs: 40,
      maxRetryMs: 200,
      sweepMs: 50,
      ...options,
    });
  };
  const empty = async () => (await purger.backlog()).keys === 0;
  afterEach(async () => {
    await purger.close();
    await dropRedisPrefix(redis, prefix);
  });

  it('registers every series at 0 before the first purge', async () => {
    await start({});
    const text = await registry.metrics();
    for (const provider of ['fastly', 'cloudflare']) {
      expect(text).toContain(`edge_purges_total{provider="${provider}"} 0`);
      expect(text).toContain(`edge_purge_failures_total{provider="${provider}"} 0`);
      expect(text).toContain(`edge_purge_keys_total{provider="${provider}"} 0`);
      expect(text).toContain(`edge_purge_seconds_count{provider="${provider}"} 0`);
    }
    expect(text).toContain('edge_purge_pending_keys 0');
    expect(text).toContain('edge_purge_oldest_pending_seconds 0');
  });

  it('soft-purges by key within each API documented limit per call, with the documented auth', async () => {
    await start({});
    await commit(keys(300));
    await waitFor('every key purged', empty);
    expect(fastly.calls.map((c) => [c.keys.length, c.soft, c.bad])).toEqual([
      [256, true, null],
      [44, true, null],
    ]);
    // A claim takes as many keys as the widest API's call (Fastly's 256): Cloudflare's share is cut in 100s.
    expect(cloudflare.calls.map((c) => [c.keys.length, c.bad])).toEqual([
      [100, null],
      [100, null],
      [56, null],
      [44, null],
    ]);
    expect(new Set(fastly.calls.flatMap((c) => c.keys))).toEqual(new Set(keys(300)));
    expect(new Set(cloudflare.calls.flatMap((c) => c.keys))).toEqual(new Set(keys(300)));
    expect(await counter(registry, 'edge_purges_total', 'fastly')).toBe(2);
    expect(await counter(registry, 'edge_purges_total', 'cloudflare')).toBe(4);
    expect(await counter(registry, 'edge_purge_keys_total', 'fastly')).toBe(300);
    expect(await counter(registry, 'edge_purge_failures_total', 'fastly')).toBe(0);
  });

  it('purges hard (no Fastly-Soft-Purge) what a page event may have made private', async () => {
    await start({});
    await commit(['page-gone'], true);
    await commit(['page-other.checks']);
    await waitFor('both keys purged', empty);
    expect(fastly.calls.map((c) => [c.keys, c.soft])).toEqual([
      [['page-gone'], false],
      [['page-other.checks'], true],
    ]);
  });

  it('coalesces a page that changes 50 times a second into a few purges', async () => {
    await start({}, { coalesceMs: 150, sweepMs: 1_000 });
    const started = Date.now();
    for (let i = 0; i < 50; i += 1) {
      await commit(['page-flappy.checks']);
      await sleep(20);
    }
    const elapsed = Date.now() - started; // 1 s, or more on a busy machine
    await waitFor('the last change purged', empty);
    const calls = fastly.calls.length;
    expect(calls).toBeGreaterThanOrEqual(1);
    // At most one per coalescing window (and per sweep) while the changes came: never one per change.
    expect(calls).toBeLessThanOrEqual(Math.ceil(elapsed / 150) + Math.ceil(elapsed / 1_000) + 1);
    expect(calls).toBeLessThan(50);
    expect(fastly.calls.every((c) => c.keys.join() === 'page-flappy.checks' && c.bad === null)).toBe(true);
  });

  it('retries failed purges with backoff until every API accepts them, counting each failure', async () => {
    await start({});
    fastly.failNext(3, 503, '{"msg":"Service Unavailable"}');
    cloudflare.failNext(
      1,
      429,
      JSON.stringify({ success: false, errors: [{ code: 971, message: 'Please wait' }], messages: [] }),
    );
    await commit(['page-a', 'page-b.checks']);
    await waitFor('both APIs accepted the purge', empty);
    // A claim leaves the outbox when every edge accepted it: the edge that had accepted is called again.
    expect(fastly.calls.map((c) => c.keys)).toEqual(Array(4).fill(['page-a', 'page-b.checks']));
    expect(cloudflare.calls.map((c) => c.keys)).toEqual(Array(4).fill(['page-a', 'page-b.checks']));
    expect(await counter(registry, 'edge_purge_failures_total', 'fastly')).toBe(3);
    expect(await counter(registry, 'edge_purge_failures_total', 'cloudflare')).toBe(1);
    expect(await counter(registry, 'edge_purges_total', 'fastly')).toBe(1);
    const text = await registry.metrics();
    expect(text).toContain('edge_purge_failures_total{provider="fastly"} 3');
    expect(text).toContain('edge_purge_seconds_count{provider="cloudflare"} 3');
  });

  it('keeps retrying a rejected token, never dropping the keys', async () => {
    await start({ FASTLY_API_TOKEN: 'a-wrong-token-0123', EDGE_PURGE: 'fastly' });
    await commit(['page-a']);
    // The stand-in records a call when it arrives; the purger counts the refusal when it has read
    // the answer: wait for both.
    await waitFor(
      'three refused attempts, counted',
      async () =>
        fastly.calls.length >= 3 && (await counter(registry, 'edge_purge_failures_total', 'fastly')) >= 3,
    );
    expect(fastly.calls.every((c) => c.bad === 'unauthorized' && c.keys.join() === 'page-a')).toBe(true);
    expect((await purger.backlog()).keys).toBe(1);
  });

  // Simulated: the purger's clock (claims, backoff, the backlog's age) is a variable the test moves
  // 10 s at a time, with the shipped backoff (0.5 s doubling to 30 s); sweeps run every 20 real ms.
  // Fastly answers every call 503 for 10 minutes of that clock, while commits keep queueing purges.
  it('loses nothing over a 10-minute outage of the API, backing off to a call every 30 s', async () => {
    let now = Date.now();
    await start(
      { EDGE_PURGE: 'fastly' },
      { clock: () => now, sweepMs: 20, firstRetryMs: 500, maxRetryMs: 30_000 },
    );
    fastly.setDown({ status: 503, body: '{"msg":"Service Unavailable"}' });
    const changed = new Set<string>();
    const outageEnd = now + 10 * 60_000;
    for (let step = 0; now < outageEnd; step += 1) {
      if (step % 6 === 0) {
        const key = `page-p${step}.checks`;
        changed.add(key);
        await commit([key]);
      }
      await sleep(60); // a few sweeps at this instant
      now += 10_000;
    }
    const refused = fastly.calls.length;
    await waitFor(
      'the last refusal counted',
      async () => (await counter(registry, 'edge_purge_failures_total', 'fastly')) === refused,
    );
    await purger.sweepNow();
    const oldest = Number(/^edge_purge_oldest_pending_seconds (\S+)$/m.exec(await registry.metrics())?.[1]);
    fastly.setDown(null);
    await waitFor('the outage’s purges accepted', async () => {
      now += 10_000;
      await sleep(40);
      return empty();
    });
    // Backed off: about one call per 30 s of the outage, not one per sweep or per change.
    expect(refused).toBeGreaterThanOrEqual(18);
    expect(refused).toBeLessThanOrEqual(30);
    expect(oldest).toBeGreaterThanOrEqual(590);
    const accepted = fastly.calls.slice(refused);
    expect(accepted.every((c) => c.bad === null)).toBe(true);
    expect(new Set(accepted.flatMap((c) => c.keys))).toEqual(changed);
    expect(changed.size).toBe(10);
    expect(await counter(registry, 'edge_purge_keys_total', 'fastly')).toBe(10);
  });
});
