import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembledJson } from '../support/readModels.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

describe('projector: a page with one monitor', () => {
  let env: ProjectorEnv;
  beforeAll(async () => {
    env = await startProjectorEnv({ now: '2026-11-22T12:00:30Z' });
  });
  afterAll(() => env.close());

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bodies' shape is what is asserted
  const body = async (slug: string, key: 'charts' | 'minute'): Promise<any> => assembledJson(env, slug, key);

  it('projects checks into charts with an exact down interval', async () => {
    await env.append(
      pageConfigured('acme'),
      monitorConfigured('acme', 1, { name: 'API' }),
      check('acme', 1, '2026-11-22T11:00:00Z', 'up', 100),
      check('acme', 1, '2026-11-22T11:30:00Z', 'down', 300),
      check('acme', 1, '2026-11-22T11:45:00Z', 'up', 200),
      check('acme', 1, '2026-11-22T12:00:00Z', 'degraded', 400),
    );
    expect(await env.project()).toBe(6);
    const charts = await body('acme', 'charts');
    expect(charts.monitors).toHaveLength(1);
    expect(charts.monitors[0]).toMatchObject({
      id: 1,
      name: 'API',
      state: 'degraded',
      avg_response_time_today: 250,
      hourly_data: [
        { hour: 11, avg_response: 200, uptime: 75 },
        { hour: 12, avg_response: 400, uptime: 100 },
      ],
    });
    expect(charts.overall).toBe('degraded_performance');
    // The instant: the clock's minute, 12:00 (the latest check, 12:00:00, is not later).
    expect(charts.timestamp).toBe(Date.parse('2026-11-22T12:00:00Z') / 1000);
  });

  it('projects a late check as if it had come in order', async () => {
    // A down check at 11:50 arrives late: the failure now runs 11:30–11:45 and 11:50–12:00.
    await env.append(check('acme', 1, '2026-11-22T11:50:00Z', 'down', 500));
    await env.project();
    const charts = await body('acme', 'charts');
    // hour 11: down 15 min + 10 min of 60 → 100 × (1 − 25/60) = 58.333
    expect(charts.monitors[0].hourly_data[0]).toEqual({ hour: 11, avg_response: 275, uptime: 58.333 });
  });
});
