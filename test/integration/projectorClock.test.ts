// What changes with the clock alone: maintenance status at window boundaries, overall
// under_maintenance, minute windows and rolling availability — with no new event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { availabilityJson, keysOf, assembledJson } from '../support/readModels.ts';

const maintenance = (page: string, id: string, start: string, end: string) => ({
  type: 'maintenance.scheduled',
  page,
  at: '2026-11-22T00:00:00Z',
  data: { maintenance_id: id, title: `Upgrade ${id}`, scheduled_start: start, scheduled_end: end },
});

describe('clock-driven read models', () => {
  let env: ProjectorEnv;
  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T10:00:30Z' });
    await env.append(
      pageConfigured('clock', {}, '2026-11-22T00:00:00Z'),
      monitorConfigured('clock', 7, { impact: 'partial' }, '2026-11-22T00:00:00Z'),
      check('clock', 7, '2026-11-22T09:00:00Z', 'up', 120),
      check('clock', 7, '2026-11-22T09:59:00Z', 'down', 900),
      maintenance('clock', 'm1', '2026-11-22T10:20:00Z', '2026-11-22T10:40:00Z'),
    );
    await env.project();
  });
  afterAll(() => env.close());

  const maintenanceStatus = async () => {
    const keys = await keysOf(env, 'clock');
    const doc = JSON.parse((await env.redis.hget(keys.maintenanceDocs, 'm1'))!) as { status: string };
    const lists = await Promise.all(
      ['scheduled', 'in_progress', 'completed'].map(async (s) => [
        s,
        await env.redis.zrange(keys.maintenanceStatus(s), 0, -1),
      ]),
    );
    return { status: doc.status, lists: Object.fromEntries(lists) };
  };

  it('starts scheduled, with the monitor down', async () => {
    expect(await maintenanceStatus()).toEqual({
      status: 'scheduled',
      lists: { scheduled: ['m1'], in_progress: [], completed: [] },
    });
    // The only counted monitor is down: every counted monitor down → major_outage.
    expect((await assembledJson(env, 'clock', 'charts'))['overall']).toBe('major_outage');
    const day = await availabilityJson(env, 'clock', 7, '24h');
    expect(day['availability']).toMatchObject({ downtime_seconds: 90, incident_count: 1, mttr_seconds: 90 });
  });

  it('moves availability and the minute window with the clock alone', async () => {
    env.setNow('2026-11-22T10:05:10Z');
    expect(await env.project()).toBe(0); // no event, only the clock
    const day = await availabilityJson(env, 'clock', 7, '24h');
    // Down since 09:59:00, still down at 10:05:10 → 370 s.
    expect(day['availability']).toMatchObject({
      downtime_seconds: 370,
      uptime_percentage: 99.572,
      mttr_seconds: 370,
    });
    const minute = await assembledJson(env, 'clock', 'minute');
    expect(minute).toEqual({
      monitors: [
        {
          id: 7,
          minute_data: [{ minute: '2026-11-22T09:59:00Z', response_time: 900, status: 'down' }],
        },
      ],
    });
  });

  it('puts the maintenance in progress at its start, and overall under maintenance once the monitor is up', async () => {
    await env.append(check('clock', 7, '2026-11-22T10:06:00Z', 'up', 100));
    env.setNow('2026-11-22T10:20:05Z');
    await env.project();
    expect(await maintenanceStatus()).toEqual({
      status: 'in_progress',
      lists: { scheduled: [], in_progress: ['m1'], completed: [] },
    });
    expect((await assembledJson(env, 'clock', 'charts'))['overall']).toBe('under_maintenance');
    const embed = await env.redis.hget((await keysOf(env, 'clock')).embed, 'head');
    expect(embed).toContain('"overall":"under_maintenance"');
    expect(await env.redis.get((await keysOf(env, 'clock')).overall)).toBe('under_maintenance');
  });

  it('completes the maintenance at its end', async () => {
    env.setNow('2026-11-22T10:40:00Z');
    await env.project();
    expect(await maintenanceStatus()).toEqual({
      status: 'completed',
      lists: { scheduled: [], in_progress: [], completed: ['m1'] },
    });
    expect((await assembledJson(env, 'clock', 'charts'))['overall']).toBe('operational');
  });

  it('rolls the minute window: an hour later the old minutes are gone', async () => {
    env.setNow('2026-11-22T11:10:00Z');
    await env.project();
    const minute = await assembledJson(env, 'clock', 'minute');
    expect(minute).toEqual({ monitors: [{ id: 7, minute_data: [] }] });
  });
});
