// A maintenance event updates only its maintenance in the lists (its document, its list places,
// the counts of the months it left and entered), and the clock moves only the maintenances whose
// window it crossed: a render reads the maintenances it can show, not the page's history. The
// models stay equal, key for key, to a rebuild at the same instant, across window boundaries.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readActive } from '../../src/store/control/versions.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { partitionOf } from '../../src/shared/pageHash.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { dumpVersion } from '../support/readModels.ts';
import { commandsDuring, isWrite, writeBytes, type SeenCommand } from '../support/redisWrites.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

const scheduled = (page: string, id: string, at: string, start: number, end: number, extra = {}) => ({
  type: 'maintenance.scheduled',
  page,
  at,
  data: {
    maintenance_id: id,
    title: `Upgrade ${id}`,
    scheduled_start: iso(start),
    scheduled_end: iso(end),
    ...extra,
  },
});
const updated = (page: string, id: string, at: string, data: object) => ({
  type: 'maintenance.updated',
  page,
  at,
  data: { maintenance_id: id, ...data },
});
const transition = (page: string, id: string, at: string, kind: 'started' | 'completed' | 'cancelled') => ({
  type: `maintenance.${kind}`,
  page,
  at,
  data: { maintenance_id: id },
});

describe('maintenance lists updated in place', () => {
  let env: ProjectorEnv;
  const dump = async () =>
    dumpVersion(env.redis, env.prefix, (await readActive(env.redis, env.prefix))!.version);
  const pagePrefix = async (slug: string) =>
    `${await env.tagOf(partitionOf(slug, env.partitions))}:pg:${slug}`;
  /** `except`: keys left out (by a suffix of their name). */
  const expectRebuildEqual = async (except: readonly string[] = []) => {
    const kept = async () => {
      const all = await dump();
      for (const key of [...all.keys()]) if (except.some((suffix) => key.endsWith(suffix))) all.delete(key);
      return all;
    };
    const incremental = await kept();
    await rebuild(env.deps, { prefix: env.prefix, partitions: 2, graceMs: 0 });
    expect(await kept()).toEqual(incremental);
  };

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 2, now: '2026-11-22T12:00:00Z' });
  });
  afterAll(() => env.close());

  /** A page with `count` past maintenances, a day apart, and two upcoming ones (u1, u2). */
  const pageWithHistory = async (slug: string, count: number) => {
    await env.append(
      pageConfigured(slug, {}, '2025-01-01T00:00:00Z'),
      monitorConfigured(slug, slug.length, {}, '2025-01-01T00:00:00Z'),
    );
    const first = Date.parse('2025-06-01T10:00:00Z');
    for (let from = 0; from < count; from += 100) {
      const ids = Array.from({ length: Math.min(100, count - from) }, (_, k) => from + k);
      await env.append(
        ...ids.map((i) =>
          scheduled(
            slug,
            `m${i}`,
            iso(first + i * 24 * HOUR - 48 * HOUR),
            first + i * 24 * HOUR,
            first + i * 24 * HOUR + HOUR,
          ),
        ),
      );
    }
    await env.append(
      scheduled(
        slug,
        'u1',
        '2026-11-20T00:00:00Z',
        Date.parse('2026-11-25T10:00:00Z'),
        Date.parse('2026-11-25T12:00:00Z'),
      ),
      scheduled(
        slug,
        'u2',
        '2026-11-20T00:00:00Z',
        Date.parse('2026-11-26T10:00:00Z'),
        Date.parse('2026-11-26T12:00:00Z'),
      ),
    );
    await env.project();
  };

  /** What one maintenance.updated of u1 (moved into December, described) makes Redis run on the page's keys. */
  const oneUpdate = async (slug: string, at: string): Promise<SeenCommand[]> => {
    const prefix = await pagePrefix(slug);
    return commandsDuring(inject('redisUrl'), prefix, async () => {
      await env.append(
        updated(slug, 'u1', at, {
          description: `Moved at ${at}`,
          scheduled_start: '2026-12-02T10:00:00Z',
          scheduled_end: '2026-12-02T12:00:00Z',
        }),
      );
      await env.project();
    });
  };

  it('writes only the maintenance that changed, and reads only what the page shows', async () => {
    await pageWithHistory('few', 60);
    await pageWithHistory('many', 400);
    const few = await oneUpdate('few', '2026-11-22T12:00:00Z');
    const many = await oneUpdate('many', '2026-11-22T12:00:00Z');
    const prefix = await pagePrefix('many');
    const lists = many.filter((c) => isWrite(c) && c.key.startsWith(`${prefix}:mnt:`));
    // Its document, its places in the whole list, the status lists and its two months, the
    // counts and listed months of those two months: nothing of the 401 others.
    expect(lists.filter((c) => c.name === 'del')).toEqual([]);
    const members = new Set(
      lists.flatMap((c) => (c.name === 'zadd' ? c.args.slice(-1) : c.name === 'zrem' ? c.args : [])),
    );
    expect([...members]).toEqual(['u1']);
    const docFields = lists.filter((c) => c.key === `${prefix}:mnt:docs`).map((c) => c.args[0]);
    expect(docFields).toEqual(['u1']);
    const monthKeys = new Set(
      lists.filter((c) => c.key.includes(':mnt:m:')).map((c) => c.key.slice(prefix.length)),
    );
    expect([...monthKeys].sort()).toEqual([':mnt:m:2026-11', ':mnt:m:2026-12']);
    const counted = lists.filter((c) => c.key === `${prefix}:mnt:counts`).map((c) => c.args[0]);
    expect(counted.sort()).toEqual(['2026-11', '2026-12']);
    // No render reads every maintenance of the page.
    expect(many.filter((c) => c.name === 'hgetall' && c.key === `${prefix}:state:mnt`)).toEqual([]);
    // The page's writes do not grow with its history: both pages show 50 maintenances at most.
    expect(writeBytes(many)).toBeLessThanOrEqual(writeBytes(few) * 1.05);
    await expectRebuildEqual();
  });

  it('equals a rebuild at every instant as the clock crosses window boundaries', async () => {
    const slug = 'clock';
    const at = (t: string) => `2026-11-30T${t}:00Z`;
    const ms = (t: string) => Date.parse(at(t));
    env.setNow(at('19:00'));
    await env.append(
      pageConfigured(slug, {}, '2026-10-01T00:00:00Z'),
      monitorConfigured(slug, 31, { name: 'API' }, '2026-10-01T00:00:00Z'),
    );
    // 55 past ones (p), five of them starting together at the 50th place by start (the Statuspage
    // list), and 55 older ones (q) cancelled lately, five together at the 50th place by latest
    // change once every maintenance has settled (the feeds): ties at the last place shown.
    const tied = (i: number) => (i >= 9 && i <= 13 ? 11 : i);
    const past = Array.from({ length: 55 }, (_, i) => {
      const start = Date.parse('2026-10-02T00:00:00Z') + tied(i) * 12 * HOUR;
      return scheduled(slug, `p${i}`, '2026-10-01T00:00:00Z', start, start + HOUR);
    });
    const older = Array.from({ length: 55 }, (_, i) => {
      const start = Date.parse('2025-03-01T00:00:00Z') + i * 24 * HOUR;
      return scheduled(slug, `q${i}`, '2025-02-01T00:00:00Z', start, start + HOUR);
    });
    await env.append(...past, ...older);
    await env.append(
      ...older.map((_, i) =>
        transition(slug, `q${i}`, iso(Date.parse('2026-11-10T00:00:00Z') + tied(i) * HOUR), 'cancelled'),
      ),
    );
    await env.append(
      scheduled(slug, 'a', at('18:00'), ms('20:30'), ms('21:30'), { components: ['API'] }),
      scheduled(slug, 'b', at('18:00'), ms('21:00'), Date.parse('2026-12-01T02:00:00Z')),
      scheduled(slug, 'c', at('18:00'), ms('20:10'), ms('22:00')),
      scheduled(slug, 'd', at('18:00'), ms('20:20'), ms('20:50')),
      scheduled(slug, 'e', at('18:00'), ms('22:00'), ms('23:00'), { components: ['API'] }),
      scheduled(
        slug,
        'f',
        at('18:00'),
        Date.parse('2026-12-05T10:00:00Z'),
        Date.parse('2026-12-05T11:00:00Z'),
      ),
      // In progress for over a year: neither among the newest by start nor settled until December.
      scheduled(
        slug,
        'g',
        at('18:00'),
        Date.parse('2025-01-01T00:00:00Z'),
        Date.parse('2026-12-01T01:00:00Z'),
        {
          components: ['API'],
        },
      ),
    );
    await env.project();
    await expectRebuildEqual();

    const steps: [string, object[]][] = [
      ['20:05', [transition(slug, 'c', at('20:05'), 'started')]],
      ['20:15', [transition(slug, 'd', at('20:15'), 'cancelled')]],
      ['20:31', []], // a starts by the clock
      ['21:00', []], // b starts exactly now
      ['21:31', []], // a completes by the clock
      ['21:45', [updated(slug, 'b', at('21:45'), { scheduled_end: '2026-12-01T03:00:00Z' })]],
      ['22:01', []], // c completes, e starts
      ['22:10', [transition(slug, 'e', at('22:10'), 'completed')]],
      ['22:30', [updated(slug, 'f', at('22:30'), { scheduled_start: '2026-11-30T22:45:00Z' })]],
      ['23:00', []], // f started (moved into today)
    ];
    for (const [time, events] of steps) {
      env.setNow(at(time));
      if (events.length > 0) await env.append(...events);
      await env.project();
      await expectRebuildEqual();
    }
    // Across the month: b and f complete in December.
    for (const time of ['2026-12-01T03:00:30Z', '2026-12-05T11:00:00Z']) {
      env.setNow(time);
      await env.project();
      await expectRebuildEqual();
    }
    // Between two minutes' clock renders: h starts at 23:10:30 and the page's monitor goes down
    // at 23:10:45; that render shows h started in every part, as a rebuild then does. (The last
    // step: this check's buckets expire by Redis's clock, not the test's.)
    env.setNow('2026-12-05T23:10:00Z');
    const h = [Date.parse('2026-12-05T23:10:30Z'), Date.parse('2026-12-05T23:40:00Z')] as const;
    await env.append(scheduled(slug, 'h', '2026-12-05T23:10:00Z', ...h));
    await env.project();
    env.setNow('2026-12-05T23:10:45Z');
    await env.append(check(slug, 31, '2026-12-05T23:10:45Z', 'down'));
    await env.project();
    // The SLA clock is the instant of the minute's first run (23:10:00), a rebuild's its own.
    await expectRebuildEqual([':sla:tick']);
  });
});
