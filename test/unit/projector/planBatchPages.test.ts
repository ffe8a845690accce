// Planning page events: documents evolve, and each kind of event marks what must be rendered
// again (the dirty scopes); a removed monitor takes its models with it.
import { describe, expect, it } from 'vitest';
import { aCheck, anEvent, aPage, marked, ms, TAG, when, writesTo } from './given.ts';

const incident = (at: string) =>
  anEvent('incident.opened', at, { incident_id: 'i1', title: 'Down', message: 'Looking', components: [] });
const incidentDoc = {
  id: 'i1',
  title: 'Down',
  state: 'resolved' as const,
  startedAt: 1,
  resolvedAt: 2,
  components: [],
  updates: [],
};
const maintenance = (at: string) =>
  anEvent('maintenance.scheduled', at, {
    maintenance_id: 'm1',
    title: 'Upgrade',
    scheduled_start: '2026-11-23T00:00:00Z',
    scheduled_end: '2026-11-23T01:00:00Z',
  });

describe('planBatch: dirty scopes', () => {
  it('given a page, when an incident opens, then that incident is rendered again, not the lists or maintenances', () => {
    const plan = when({ states: { acme: aPage() } }, [incident('2026-11-22T10:00:00Z')]);
    expect(marked(plan.writes, 'dirty')).toEqual(['acme']);
    expect(marked(plan.writes, 'dirty:inc')).toEqual([]);
    expect(marked(plan.writes, 'dirty:inc:docs')).toEqual(['acme|i1']);
    expect(marked(plan.writes, 'dirty:mnt')).toEqual([]);
    expect(marked(plan.writes, 'pages')).toEqual(['acme']);
  });

  it('given a page, when a maintenance is scheduled, then only that maintenance is marked', () => {
    const plan = when({ states: { acme: aPage() } }, [maintenance('2026-11-22T10:00:00Z')]);
    expect(marked(plan.writes, 'dirty:inc')).toEqual([]);
    expect(marked(plan.writes, 'dirty:mnt')).toEqual([]);
    expect(marked(plan.writes, 'dirty:mnt:docs')).toEqual(['acme|m1']);
  });

  it('given nothing, when a page is configured with a monitor, then everything of it is marked once', () => {
    const plan = when({ states: { acme: null } }, [
      anEvent('page.configured', '2026-11-22T10:00:00Z', {
        title: 'Acme',
        plan: 'growth',
        custom_domain: null,
        auth_token_hash: null,
        blocked: false,
      }),
      anEvent('monitor.configured', '2026-11-22T10:00:01Z', { monitor_id: 3, name: 'API' }),
      anEvent('monitor.configured', '2026-11-22T10:00:02Z', { monitor_id: 3, name: 'API v2' }),
    ]);
    expect(marked(plan.writes, 'dirty')).toEqual(['acme']);
    expect(marked(plan.writes, 'dirty:inc')).toEqual(['acme']);
    expect(marked(plan.writes, 'dirty:mnt')).toEqual(['acme']);
    expect(marked(plan.writes, 'dirty:avail')).toEqual(['acme|3']);
  });

  it('writes the evolved document once, in parts, and the latest event time apart from it', () => {
    const plan = when({ states: { acme: aPage() } }, [
      incident('2026-11-22T10:00:00Z'),
      aCheck('2026-11-22T11:00:00Z', 'up'),
      aCheck('2026-11-22T10:30:00Z', 'up'),
    ]);
    const [state, ...more] = writesTo(plan.writes, `${TAG}:pg:acme:state`);
    expect(more).toEqual([]);
    expect(state).toMatchObject({ op: 'set' });
    const core = JSON.parse((state as { value: string }).value) as object;
    expect(Object.keys(core)).toEqual(['settings', 'deleted', 'monitors']);
    const [incidents, ...others] = writesTo(plan.writes, `${TAG}:pg:acme:state:inc`);
    expect(others).toEqual([]);
    expect(incidents).toMatchObject({ op: 'hset', fields: [['i1', expect.any(String)]] });
    const doc = incidents?.op === 'hset' ? String(incidents.fields[0]?.[1]) : '';
    expect(JSON.parse(doc)).toMatchObject({ id: 'i1', title: 'Down', state: 'investigating' });
    expect(writesTo(plan.writes, `${TAG}:pg:acme:updated`)).toEqual([
      { op: 'set', key: `${TAG}:pg:acme:updated`, value: String(ms('2026-11-22T11:00:00Z')) },
    ]);
  });

  it('given a page with incidents, when one is updated, then only that incident is written', () => {
    const page = { ...aPage(), incidents: { i1: incidentDoc, i0: { ...incidentDoc, id: 'i0' } } };
    const plan = when({ states: { acme: page } }, [
      anEvent('incident.updated', '2026-11-22T10:00:00Z', {
        incident_id: 'i1',
        state: 'resolved',
        message: 'Still fixed',
      }),
    ]);
    const [updated, ...more] = writesTo(plan.writes, `${TAG}:pg:acme:state:inc`);
    expect(more).toEqual([]);
    expect(updated).toMatchObject({ op: 'hset', fields: [['i1', expect.any(String)]] });
    expect(writesTo(plan.writes, `${TAG}:pg:acme:state:mnt`)).toEqual([]);
  });

  it('given a deleted page, when it is deleted, then its incident and maintenance documents go before anything new', () => {
    const plan = when({ states: { acme: aPage() } }, [
      anEvent('page.deleted', '2026-11-22T10:00:00Z'),
      anEvent('page.configured', '2026-11-22T10:01:00Z', {
        title: 'Acme',
        plan: 'growth',
        custom_domain: null,
        auth_token_hash: null,
        blocked: false,
      }),
      maintenance('2026-11-22T10:02:00Z'),
    ]);
    const keys = [`${TAG}:pg:acme:state:inc`, `${TAG}:pg:acme:state:mnt`];
    const [drop, ...after] = writesTo(plan.writes, keys[1]!);
    expect(drop).toEqual({ op: 'del', keys });
    expect(after).toMatchObject([{ op: 'hset', fields: [['m1', expect.any(String)]] }]);
    expect(plan.writes.indexOf(drop!)).toBeLessThan(plan.writes.indexOf(after[0]!));
  });

  it('given a document of the single-document layout, when it changes, then every document moves to its hash', () => {
    const page = { ...aPage(), incidents: { i0: { ...incidentDoc, id: 'i0' } } };
    const plan = when({ states: { acme: page }, legacy: ['acme'] }, [maintenance('2026-11-22T10:00:00Z')]);
    expect(writesTo(plan.writes, `${TAG}:pg:acme:state:inc`)).toEqual([
      { op: 'hset', key: `${TAG}:pg:acme:state:inc`, fields: [['i0', JSON.stringify(page.incidents.i0)]] },
    ]);
    expect(writesTo(plan.writes, `${TAG}:pg:acme:state:mnt`)).toMatchObject([
      { op: 'hset', fields: [['m1', expect.any(String)]] },
    ]);
  });

  it('never moves the latest event time back for a late event', () => {
    const page = { ...aPage(), updatedAt: ms('2026-11-22T11:00:00Z') };
    const plan = when({ states: { acme: page } }, [aCheck('2026-11-22T09:00:00Z', 'up')]);
    expect(writesTo(plan.writes, `${TAG}:pg:acme:updated`)).toEqual([
      { op: 'set', key: `${TAG}:pg:acme:updated`, value: String(ms('2026-11-22T11:00:00Z')) },
    ]);
    expect(plan.writes.filter((w) => 'key' in w && w.key.includes(':pg:acme:state'))).toEqual([]); // checks do not touch the document
  });
});

describe('planBatch: removed monitors', () => {
  it('given a monitor, when it is removed, then its timeline, buckets and availability go, and later checks are dropped', () => {
    const now = ms('2026-11-22T12:00:00Z');
    const plan = when(
      { states: { acme: aPage([1, 2]) } },
      [
        aCheck('2026-11-22T10:00:00Z', 'down'),
        anEvent('monitor.removed', '2026-11-22T10:01:00Z', { monitor_id: 1 }),
        aCheck('2026-11-22T10:02:00Z', 'down'),
      ],
      now,
    );
    const mon = `${TAG}:mon:1`;
    expect(writesTo(plan.writes, `${mon}:tl`)).toEqual([
      // No check was kept before the batch: no hour set of recent checks to delete.
      { op: 'del', keys: [`${mon}:tl`, `${mon}:anchor`, `${mon}:down`, `${mon}:down:days`] },
    ]);
    const today = Math.floor(now / 86_400_000);
    const [buckets, ...others] = writesTo(plan.writes, `${mon}:hr:${today}`);
    expect(others).toEqual([]);
    // Every hash that can hold the monitor's buckets: the slot of its last check among them.
    const slot = Math.floor(ms('2026-11-22T10:00:00Z') / 1_800_000);
    expect(buckets).toEqual({
      op: 'del',
      keys: expect.arrayContaining([`${mon}:min30:${slot}`, `${mon}:hr:${today}`, `${mon}:hr:${today - 1}`]),
    });
    expect(writesTo(plan.writes, `${TAG}:pg:acme:avail:1`)).toEqual([
      { op: 'del', keys: [`${TAG}:pg:acme:avail:1`] },
    ]);
    expect(marked(plan.writes, 'dirty:avail')).toEqual([]);
  });

  it('drops the checks of a monitor the page does not have; checks leave the page set as it is', () => {
    const plan = when({ states: { acme: aPage([2]) } }, [aCheck('2026-11-22T10:00:00Z', 'up', 1)]);
    expect(plan.writes.filter((w) => 'key' in w && w.key.includes(':mon:'))).toEqual([]);
    // The page joined the set with its own events; a check only reaches a page in it.
    expect(marked(plan.writes, 'pages')).toEqual([]);
    expect(writesTo(plan.writes, `${TAG}:pg:acme:updated`)).toHaveLength(1);
  });
});
