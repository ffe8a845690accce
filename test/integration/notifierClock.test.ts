// The clock's notices on a real PostgreSQL: a maintenance's reminder, start and completion, and a
// monitor's state once it has held, each planned once however many ticks see it.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planClock } from '../../src/notify/planClock.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { appendNow, outbox, planAll, subscribersApp, urls } from '../support/notifyFixture.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';
import { INGEST_TOKEN } from '../support/testServers.ts';

let t: TestDatabase;
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;

beforeAll(async () => {
  t = await freshDatabase();
  await appendNow(t, [
    pageConfigured('acme', { state_hold_seconds: 120 }, iso(now)),
    monitorConfigured('acme', 1, { name: 'API' }, iso(now)),
  ]);
});
afterAll(() => t.close());

const subscribe = async (body: Record<string, unknown>) =>
  (
    (
      await request(subscribersApp(t))
        .post('/v1/pages/acme/subscribers')
        .set({ Authorization: `Bearer ${INGEST_TOKEN}` })
        .send(body)
    ).body as { id: string }
  ).id;
// Chunks of 2 subscribers: the page's few are planned over several chunks.
const tick = (atMs: number) => planClock({ db: t.db, urls, coalesceMs: 30_000, subscriberChunk: 2 }, atMs);
const typesOf = async (subscriber: string) =>
  (await outbox(t)).filter((r) => r.subscriber_id === subscriber).map((r) => [r.source, r.type, r.state]);

describe('the notifier clock', () => {
  it('reminds, starts and completes a maintenance once each', async () => {
    const mail = await subscribe({ channel: 'email', email: 'ops@example.com' });
    const start = now + 2 * 60 * MIN;
    await appendNow(t, [
      {
        type: 'maintenance.scheduled',
        page: 'acme',
        at: iso(now),
        data: {
          maintenance_id: 'm1',
          title: 'Upgrade',
          scheduled_start: iso(start),
          scheduled_end: iso(start + 30 * MIN),
        },
      },
    ]);
    await planAll(t);
    expect(await tick(start - 61 * MIN)).toBe(0);
    expect(await tick(start - 60 * MIN)).toBe(1);
    expect(await tick(start - 59 * MIN)).toBe(0);
    expect(await tick(start + MIN)).toBe(1);
    expect(await tick(start + 2 * MIN)).toBe(0);
    expect(await tick(start + 31 * MIN)).toBe(1);
    expect(await typesOf(mail)).toEqual([
      [expect.stringMatching(/^log:/) as string, 'maintenance.scheduled', 'pending'],
      [`maintenance.reminder:acme:m1:${String(start)}`, 'maintenance.reminder', 'pending'],
      ['maintenance.started:acme:m1', 'maintenance.started', 'pending'],
      ['maintenance.completed:acme:m1', 'maintenance.completed', 'pending'],
    ]);
  });

  it('addresses a maintenance fact once: later ticks skip it, even for a subscriber confirmed since', async () => {
    const first = await subscribe({ channel: 'email', email: 'first@example.com' });
    const start = now + 3 * 60 * MIN;
    await appendNow(t, [
      {
        type: 'maintenance.scheduled',
        page: 'acme',
        at: iso(now),
        data: {
          maintenance_id: 'm2',
          title: 'Move',
          scheduled_start: iso(start),
          scheduled_end: iso(start + 30 * MIN),
        },
      },
    ]);
    await planAll(t);
    await tick(start - 60 * MIN);
    // Confirmed (on the wall clock) before the reminder's moment of the ticks' clock, after it was planned.
    const later = await subscribe({ channel: 'email', email: 'later@example.com' });
    await tick(start - 59 * MIN);
    await tick(start + MIN);
    const clockFacts = async (subscriber: string) =>
      (await typesOf(subscriber))
        .filter(([source]) => String(source).includes(':m2'))
        .map(([, type]) => type);
    expect(await clockFacts(first)).toEqual(['maintenance.reminder', 'maintenance.started']);
    expect(await clockFacts(later)).toEqual(['maintenance.started']);
  });

  it('notifies a monitor state once, after the page hold, only to those who asked for monitor states', async () => {
    const hook = await subscribe({
      channel: 'slack',
      url: 'https://hooks.example.com/s',
      monitor_states: true,
    });
    const quiet = await subscribe({ channel: 'teams', url: 'https://hooks.example.com/t' });
    await appendNow(t, [check('acme', 1, iso(Date.now()), 'down')]);
    await planAll(t);
    const since = Date.now();
    expect(await tick(since + 60_000)).toBe(0); // held 1 of 2 minutes
    expect(await tick(since + 5 * MIN)).toBe(1);
    expect(await tick(since + 6 * MIN)).toBe(0);
    expect((await typesOf(hook)).map(([, type]) => type)).toEqual(['monitor.state']);
    expect(await typesOf(quiet)).toEqual([]);
  });
});
