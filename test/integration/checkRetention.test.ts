// Retention (migrations/0007_check_retention.sql): monthly check tables that ended more than
// 400 days ago can be dropped, and a rebuild afterwards serves exactly what was served before;
// a cutoff inside the served periods is refused.
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuild } from '../../src/projector/rebuild.ts';
import { DAY_MS, MINUTE_MS } from '../../src/shared/time.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { availabilityJson, assembledJson } from '../support/readModels.ts';

const PERIODS = ['24h', '7d', '30d', '90d', '1y'];
const iso = (ms: number) => new Date(ms).toISOString();
const monthOf = (ms: number) => iso(ms).slice(0, 7).replace('-', '_');

describe('dropping old months of checks', () => {
  let env: ProjectorEnv;
  const nowMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  const old = nowMs - 600 * DAY_MS;

  const served = async () => ({
    availability: await Promise.all(PERIODS.map((period) => availabilityJson(env, 'ret', 7, period))),
    charts: await assembledJson(env, 'ret', 'charts'),
  });

  beforeAll(async () => {
    env = await startProjectorEnv({ now: iso(nowMs) });
  });
  afterAll(async () => {
    await env.close();
  });

  it('keeps every served figure through a rebuild', async () => {
    await env.append(
      pageConfigured('ret', {}, iso(old - DAY_MS)),
      monitorConfigured('ret', 7, {}, iso(old - DAY_MS)),
    );
    // An outage 600 days ago (outside every period), one 100 days ago (inside the year), and today.
    await env.append(
      ...[0, 1, 2].map((i) => check('ret', 7, iso(old + i * MINUTE_MS), 'down')),
      check('ret', 7, iso(old + 3 * MINUTE_MS), 'up'),
      ...[0, 1].map((i) => check('ret', 7, iso(nowMs - 100 * DAY_MS + i * MINUTE_MS), 'down')),
      check('ret', 7, iso(nowMs - 100 * DAY_MS + 2 * MINUTE_MS), 'up'),
      ...[5, 4, 3, 2, 1].map((i) => check('ret', 7, iso(nowMs - i * MINUTE_MS), 'up')),
    );
    await env.project();
    const before = await served();
    expect(before.availability[4]).not.toEqual(before.availability[3]); // the year saw the outage

    await expect(
      env.t.db.query(
        sql.unsafe`SELECT drop_check_months_before(${iso(nowMs - 30 * DAY_MS).slice(0, 10)}::date)`,
      ),
    ).rejects.toThrow(/still inside the periods the read models serve/);
    const cutoff = iso(nowMs - 400 * DAY_MS).slice(0, 8) + '01';
    const dropped = await env.t.db.anyFirst(
      sql.type(z.object({ name: z.string() }))`SELECT drop_check_months_before(${cutoff}::date) AS name`,
    );
    expect(dropped).toEqual([
      ...new Set([0, 3].map((i) => `event_log_checks_${monthOf(old + i * MINUTE_MS)}`)),
    ]);
    const checks = await env.t.db.oneFirst(
      sql.type(z.object({ n: z.string() }))`SELECT count(*)::text AS n FROM event_log_checks`,
    );
    expect(checks).toBe('8');

    await rebuild(env.deps, { prefix: env.prefix, partitions: env.partitions, graceMs: 0 });
    expect(await served()).toEqual(before);
  });
});

describe('idempotency keys under retention', () => {
  let env: ProjectorEnv;
  const nowMs = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  const old = nowMs - 600 * DAY_MS;

  beforeAll(async () => {
    env = await startProjectorEnv({ now: iso(nowMs) });
  });
  afterAll(async () => {
    await env.close();
  });

  it('drops the idempotency keys of the dropped checks with them, and keeps every other key', async () => {
    const withId = <T extends object>(id: string, event: T) => ({ id, ...event });
    await env.append(
      withId('ids-page', pageConfigured('ids', {}, iso(old - DAY_MS))),
      withId('ids-mon', monitorConfigured('ids', 8, {}, iso(old - DAY_MS))),
      withId('ids-old-check', check('ids', 8, iso(old), 'up')),
      withId('ids-new-check', check('ids', 8, iso(nowMs - MINUTE_MS), 'up')),
    );
    const keys = () =>
      env.t.db.anyFirst(
        sql.type(
          z.object({ id: z.string() }),
        )`SELECT event_id AS id FROM event_ids WHERE event_id LIKE 'ids-%' ORDER BY 1`,
      );
    expect(await keys()).toEqual(['ids-mon', 'ids-new-check', 'ids-old-check', 'ids-page']);
    await env.t.db.query(
      sql.unsafe`SELECT drop_check_months_before(${iso(nowMs - 400 * DAY_MS).slice(0, 8) + '01'}::date)`,
    );
    expect(await keys()).toEqual(['ids-mon', 'ids-new-check', 'ids-page']);
    // A check re-sent after its month was dropped is refused; every other key is still known.
    const horizon = iso(nowMs - 400 * DAY_MS).slice(0, 8) + '01';
    await expect(env.append(withId('ids-old-check', check('ids', 8, iso(old), 'up')))).rejects.toMatchObject({
      details: [{ index: 0, message: `at: checks before ${horizon} were dropped by retention` }],
    });
    const again = await env.append(
      withId('ids-new-check', check('ids', 8, iso(nowMs - MINUTE_MS), 'up')),
      withId('ids-mon', monitorConfigured('ids', 8, {}, iso(old - DAY_MS))),
    );
    expect([again.accepted, again.duplicates]).toEqual([0, 2]);
  });
});
