// The page document in parts: a batch reads the core and only the incidents and maintenances its
// events touch, so a batch of checks parses none of them however many the page has; a document
// of the single-document layout is read whole and moved into parts by its next change.
import type { RedisClient } from '../../src/store/redisClient.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectedEvent } from '../../src/events/storedEvent.ts';
import { projectedEvent } from '../support/events.ts';
import { commitWrites } from '../../src/store/control/commitWrites.ts';
import { CorruptReadModel } from '../../projections/store/corruptReadModel.ts';
import { pageStateKeys } from '../../projections/pageState/keys.ts';
import { pageStateRead } from '../../src/readModels/pageState/reads.ts';
import { runRead } from '../../src/store/reads.ts';
import { loadBatchInputs } from '../../src/projector/loadBatchInputs.ts';
import { planBatch } from '../../projections/batch/planBatch.ts';
import { dropRedisPrefix, freshRedisPrefix, testRedis } from '../support/testEnv.ts';

const now = Date.parse('2026-11-22T12:00:00Z');
let position = 0;
const event = (type: string, data: Record<string, unknown>, page = 'acme') =>
  projectedEvent({ type, page, at: '2026-11-22T10:00:00Z', position: String(++position), data });
const opened = (id: string, page = 'acme') =>
  event(
    'incident.opened',
    { incident_id: id, title: `Incident ${id}`, message: 'Looking', components: [] },
    page,
  );
const aCheck = () => event('check.recorded', { monitor_id: 1, status: 'up', response_time_ms: 10 });

describe('page document in parts', () => {
  let redis: RedisClient;
  let prefix: string;
  let tag: string;
  let checkpoint = 0;
  /** Loads, plans and commits `events` as the projector does. */
  const project = async (...events: ProjectedEvent[]) => {
    const { inputs } = await loadBatchInputs(redis, { tag, events, now });
    const plan = planBatch(tag, events, inputs, now);
    const fence = { tag, expected: `0:${checkpoint}`, next: `0:${checkpoint + 1}` };
    checkpoint += 1;
    expect(await commitWrites(redis, fence, plan.writes)).toBe(true);
  };
  const keys = () => pageStateKeys({ tag, slug: 'acme' });

  beforeAll(async () => {
    redis = testRedis();
    prefix = freshRedisPrefix();
    tag = `${prefix}:{v1.p0}`;
    await redis.set(`${tag}:ckpt`, '0:0');
    await project(
      event('page.configured', {
        title: 'Acme',
        plan: 'growth',
        custom_domain: null,
        auth_token_hash: null,
        blocked: false,
      }),
      event('monitor.configured', {
        monitor_id: 1,
        name: 'API',
        type: 'http',
        impact: 'major',
      }),
      opened('i1'),
      opened('i2'),
    );
  });
  afterAll(async () => {
    await dropRedisPrefix(redis, prefix);
    redis.disconnect();
  });

  it('stores each incident apart from the core', async () => {
    expect(Object.keys(JSON.parse((await redis.get(keys().state))!) as object)).toEqual([
      'settings',
      'deleted',
      'monitors',
    ]);
    expect((await redis.hkeys(keys().stateIncidents)).sort()).toEqual(['i1', 'i2']);
    const whole = await runRead(redis, pageStateRead({ tag, slug: 'acme' }));
    expect(Object.keys(whole!.incidents).sort()).toEqual(['i1', 'i2']);
  });

  it('loads no incident for a batch of checks, and only the incidents a batch touches', async () => {
    await redis.hset(keys().stateIncidents, 'i2', '{"unreadable":true}');
    const checks = await loadBatchInputs(redis, { tag, events: [aCheck()], now });
    expect(checks.inputs.states.get('acme')?.incidents).toEqual({});
    expect(checks.inputs.states.get('acme')?.monitors['1']?.name).toBe('API');
    const update = event('incident.updated', { incident_id: 'i1', state: 'resolved', message: 'Fixed' });
    const touched = await loadBatchInputs(redis, { tag, events: [update], now });
    expect(Object.keys(touched.inputs.states.get('acme')!.incidents)).toEqual(['i1']);
    const other = event('incident.updated', { incident_id: 'i2', state: 'resolved', message: 'Fixed' });
    await expect(loadBatchInputs(redis, { tag, events: [other], now })).rejects.toThrow(CorruptReadModel);
    await project(aCheck(), update);
    const whole = JSON.parse((await redis.hget(keys().stateIncidents, 'i1'))!) as { state: string };
    expect(whole.state).toBe('resolved');
    expect(await redis.hget(keys().stateIncidents, 'i2')).toBe('{"unreadable":true}'); // untouched
  });

  it('moves a single-document page into parts at its next change, and reads it the same before and after', async () => {
    const legacy = { tag, slug: 'old' };
    const oldKeys = pageStateKeys(legacy);
    await project(
      event(
        'page.configured',
        { title: 'Old', plan: 'growth', custom_domain: null, auth_token_hash: null, blocked: false },
        'old',
      ),
      opened('i1', 'old'),
    );
    const before = (await runRead(redis, pageStateRead(legacy)))!;
    const { updatedAt: _apart, ...whole } = before;
    await redis.set(oldKeys.state, JSON.stringify(whole)); // as the earlier layout stored it
    await redis.del(oldKeys.stateIncidents);
    expect(await runRead(redis, pageStateRead(legacy))).toEqual(before);
    const loaded = await loadBatchInputs(redis, { tag, events: [{ ...aCheck(), page: 'old' }], now });
    expect(loaded.inputs.legacyPages?.has('old')).toBe(true);

    await project(
      event(
        'maintenance.scheduled',
        {
          maintenance_id: 'm1',
          title: 'Upgrade',
          description: '',
          scheduled_start: '2026-11-23T00:00:00Z',
          scheduled_end: '2026-11-23T01:00:00Z',
          components: [],
        },
        'old',
      ),
    );
    expect(JSON.parse((await redis.get(oldKeys.state))!)).not.toHaveProperty('incidents');
    expect(await redis.hkeys(oldKeys.stateIncidents)).toEqual(['i1']);
    const after = (await runRead(redis, pageStateRead(legacy)))!;
    expect(after.incidents).toEqual(before.incidents);
    expect(Object.keys(after.maintenances)).toEqual(['m1']);
  });
});
