// Every figure of decisions.md on a hand-computed fixture, projected by the real projector.
// Timeline of monitor 1: up from 11-20 22:00, down 11-21 23:30 → 11-22 00:05 (across the day
// boundary), up, degraded from 00:08. Monitor 2 (dns, impact none) is up from 11-22 00:00.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rtmMinutes, rtmWindow, updDays } from '../../projections/embed/embed.ts';
import { createPageReads } from '../../src/readModels/pageReads.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from '../support/projectorEnv.ts';
import { availabilityJson, keysOf, assembledJson } from '../support/readModels.ts';

describe('projected figures', () => {
  let env: ProjectorEnv;
  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T00:10:00Z' });
    await env.append(
      pageConfigured('fig', {}, '2026-11-20T00:00:00Z'),
      monitorConfigured('fig', 1, { name: 'API', impact: 'major', position: 2 }, '2026-11-20T00:00:00Z'),
      monitorConfigured(
        'fig',
        2,
        { name: 'DNS', type: 'dns', impact: 'none', position: 1 },
        '2026-11-20T00:00:00Z',
      ),
      check('fig', 1, '2026-11-20T22:00:00Z', 'up', 100),
      check('fig', 1, '2026-11-21T23:30:00Z', 'down', 200),
      check('fig', 2, '2026-11-22T00:00:00Z', 'up', 50),
      check('fig', 1, '2026-11-22T00:05:00Z', 'up', 300),
      check('fig', 1, '2026-11-22T00:08:00Z', 'degraded', 500),
    );
    await env.project();
  });
  afterAll(() => env.close());

  it('renders the charts response exactly', async () => {
    const charts = await assembledJson(env, 'fig', 'charts');
    expect(charts).toEqual({
      monitors: [
        {
          id: 2,
          name: 'DNS',
          state: 'up',
          avg_response_time_today: 50,
          hourly_data: [{ hour: 0, avg_response: 50, uptime: 100 }],
          minute_data: [{ minute: '2026-11-22T00:00:00Z', response_time: 50, status: 'up' }],
          yesterday_hourly_data: [],
        },
        {
          id: 1,
          name: 'API',
          state: 'degraded',
          avg_response_time_today: 400,
          // 00:00–00:10 observed, down until 00:05.
          hourly_data: [{ hour: 0, avg_response: 400, uptime: 50 }],
          minute_data: [
            { minute: '2026-11-21T23:30:00Z', response_time: 200, status: 'down' },
            { minute: '2026-11-22T00:05:00Z', response_time: 300, status: 'up' },
            { minute: '2026-11-22T00:08:00Z', response_time: 500, status: 'degraded' },
          ],
          yesterday_hourly_data: [{ hour: 23, avg_response: 200, uptime: 50 }],
        },
      ],
      overall: 'degraded_performance',
      globalDaily: [
        { date: '2026-11-22', uptime: 75 }, // mean(50, 100)
        { date: '2026-11-21', uptime: 97.917 }, // 1 − 1800/86400; monitor 2 had no data yet
        { date: '2026-11-20', uptime: 100 },
      ],
      timestamp: Date.parse('2026-11-22T00:10:00Z') / 1000,
    });
  });

  it('renders minute-data with the same minute rule', async () => {
    const minute = await assembledJson(env, 'fig', 'minute');
    expect(minute).toEqual({
      monitors: [
        { id: 2, minute_data: [{ minute: '2026-11-22T00:00:00Z', response_time: 50, status: 'up' }] },
        {
          id: 1,
          minute_data: [
            { minute: '2026-11-21T23:30:00Z', response_time: 200, status: 'down' },
            { minute: '2026-11-22T00:05:00Z', response_time: 300, status: 'up' },
            { minute: '2026-11-22T00:08:00Z', response_time: 500, status: 'degraded' },
          ],
        },
      ],
    });
  });

  it('computes availability over the last 24 hours to the second', async () => {
    expect(await availabilityJson(env, 'fig', 1, '24h')).toEqual({
      monitor_id: 1,
      monitor_name: 'API',
      period: '24h',
      availability: {
        uptime_percentage: 97.569, // (86400 − 2100) / 86400
        downtime_seconds: 2100,
        total_seconds: 86400,
        mtbf_seconds: 84300,
        mttr_seconds: 2100,
        incident_count: 1,
      },
      daily_breakdown: [
        { date: '2026-11-22', uptime_percentage: 50, downtime_seconds: 300 },
        { date: '2026-11-21', uptime_percentage: 97.902, downtime_seconds: 1800 }, // of 85800 s
      ],
    });
  });

  it('has no failures and full uptime for a monitor that was never down', async () => {
    const seven = await availabilityJson(env, 'fig', 2, '7d');
    expect(seven['availability']).toEqual({
      uptime_percentage: 100,
      downtime_seconds: 0,
      total_seconds: 604800,
      mtbf_seconds: 604800,
      mttr_seconds: 0,
      incident_count: 0,
    });
    expect((seven['daily_breakdown'] as unknown[]).length).toBe(8);
  });

  it('stores the embed parts and assembles rtm per minute with gaps, upd per day oldest first', async () => {
    const embed = await env.redis.hgetall((await keysOf(env, 'fig')).embed);
    expect(
      Object.keys(embed)
        .filter((field) => !/(^|:)rev$/.test(field))
        .sort(),
    ).toEqual(['access', 'head', 'incidents', 'tail']);
    const page = { tag: await env.tagOf(partitionOf('fig', env.partitions)), slug: 'fig' };
    const now = env.now().getTime();
    const { monitors } = await createPageReads(env.redis, URLS).series(page, now);
    const rtm = rtmMinutes(monitors!, now);
    expect(rtm).toHaveLength(240);
    expect(rtm[239 - 40]).toBe(200); // 23:30
    expect(rtm[239 - 10]).toBe(50); // 00:00
    expect(rtm[239 - 5]).toBe(300);
    expect(rtm[239 - 2]).toBe(500);
    expect(rtm.filter((v) => v !== null)).toHaveLength(4);
    expect(rtmWindow(rtm, 10)).toEqual([300, 300, 300, 300, 300, 300, 300, 500, 500, 500]);
    expect(rtmWindow(rtm, 3)).toEqual([500, 500, 500]);
    const upd = updDays(monitors!, now);
    expect(upd).toEqual([...Array<number>(27).fill(100), 100, 97.917, 75]);
    expect(embed['tail']).toBe('"dns_only":false');
    expect(JSON.parse(`{${embed['head']}}`)).toEqual({
      page: 'fig',
      page_url: 'http://status.test/s/fig',
      overall: 'degraded_performance',
    });
    expect(await env.redis.get((await keysOf(env, 'fig')).updated)).toBe(
      String(Date.parse('2026-11-22T00:08:00Z')),
    );
  });
});
