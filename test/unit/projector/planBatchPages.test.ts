// Planning page events: documents evolve, and each kind of event marks what must be rendered
// again (the dirty scopes); a removed monitor takes its models with it.
import { describe, expect, it } from 'vitest';
import { aCheck, anEvent, aPage, marked, ms, TAG, when, writesTo } from './given.ts';

const incident = (at: string) =>
  anEvent('incident.opened', at, { incident_id: 'i1', title: 'Down', message: 'Looking', components: [] });
const maintenance = (at: string) =>
  anEvent('maintenance.scheduled', at, {
    maintenance_id: 'm1',
    title: 'Upgrade',
    scheduled_start: '2026-11-23T00:00:00Z',
    scheduled_end: '2026-11-23T01:00:00Z',
  });

describe('planBatch: dirty scopes', () => {
  it('given a page, when an incident opens, then incidents are rendered again, not maintenances', () => {
    const plan = when({ states: { acme: aPage() } }, [incident('2026-11-22T10:00:00Z')]);
    expect(marked(plan.writes, 'dirty')).toEqual(['acme']);
    expect(marked(plan.writes, 'dirty:inc')).toEqual(['acme']);
    expect(marked(plan.writes, 'dirty:mnt')).toEqual([]);
    expect(marked(plan.writes, 'pages')).toEqual(['acme']);
  });

  it('given a page, when a maintenance is scheduled, then maintenances are rendered again', () => {
    const plan = when({ states: { acme: aPage() } }, [maintenance('2026-11-22T10:00:00Z')]);
    expect(marked(plan.writes, 'dirty:inc')).toEqual([]);
    expect(marked(plan.writes, 'dirty:mnt')).toEqual(['acme']);
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

  it('writes the evolved document once and the latest event time apart from it', () => {
    const plan = when({ states: { acme: aPage() } }, [
      incident('2026-11-22T10:00:00Z'),
      aCheck('2026-11-22T11:00:00Z', 'up'),
      aCheck('2026-11-22T10:30:00Z', 'up'),
    ]);
    const [state] = writesTo(plan.writes, `${TAG}:pg:acme:state`);
    expect(state).toMatchObject({ op: 'set' });
    expect(JSON.parse((state as { value: string }).value)).toMatchObject({
      incidents: { i1: { title: 'Down' } },
    });
    expect(JSON.parse((state as { value: string }).value)).not.toHaveProperty('updatedAt');
    expect(writesTo(plan.writes, `${TAG}:pg:acme:updated`)).toEqual([
      { op: 'set', key: `${TAG}:pg:acme:updated`, value: String(ms('2026-11-22T11:00:00Z')) },
    ]);
  });

  it('never moves the latest event time back for a late event', () => {
    const page = { ...aPage(), updatedAt: ms('2026-11-22T11:00:00Z') };
    const plan = when({ states: { acme: page } }, [aCheck('2026-11-22T09:00:00Z', 'up')]);
    expect(writesTo(plan.writes, `${TAG}:pg:acme:updated`)).toEqual([
      { op: 'set', key: `${TAG}:pg:acme:updated`, value: String(ms('2026-11-22T11:00:00Z')) },
    ]);
    expect(writesTo(plan.writes, `${TAG}:pg:acme:state`)).toEqual([]); // checks do not touch the document
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
      { op: 'del', keys: [`${mon}:tl`, `${mon}:recent`, `${mon}:down`, `${mon}:down:days`] },
    ]);
    const today = Math.floor(now / 86_400_000);
    expect(writesTo(plan.writes, `${mon}:hr:${today}`)).toEqual([
      { op: 'del', keys: [`${mon}:min:${today}`, `${mon}:hr:${today}`] },
    ]);
    expect(writesTo(plan.writes, `${TAG}:pg:acme:avail:1`)).toEqual([
      { op: 'del', keys: [`${TAG}:pg:acme:avail:1`] },
    ]);
    expect(marked(plan.writes, 'dirty:avail')).toEqual([]);
  });

  it('drops the checks of a monitor the page does not have, but still marks the page', () => {
    const plan = when({ states: { acme: aPage([2]) } }, [aCheck('2026-11-22T10:00:00Z', 'up', 1)]);
    expect(plan.writes.filter((w) => 'key' in w && w.key.includes(':mon:'))).toEqual([]);
    expect(marked(plan.writes, 'pages')).toEqual(['acme']);
    expect(writesTo(plan.writes, `${TAG}:pg:acme:updated`)).toHaveLength(1);
  });
});
