// A push monitor removed while the scheduler appends the missed checks: the others' checks are
// still appended (each on its own once the batch is refused), the removed one's is not.
import { sql } from 'slonik';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appendEvents, appendParsed } from '../../src/eventLog/appendEvents.ts';
import { parseEvent, type EventError, type ParsedEvent } from '../../src/events/parseEvent.ts';
import { appendMissedHeartbeats } from '../../src/integrations/missedHeartbeats.ts';
import { check, monitorConfigured, pageConfigured } from '../support/events.ts';
import { untilSomeoneWaits } from '../support/lockWaits.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(() => t.close());

it('appends the other monitors’ missed checks when one is removed meanwhile', async () => {
  const push = { type: 'push', push_interval_s: 30 };
  await appendEvents(
    t.db,
    [
      pageConfigured('gone'),
      monitorConfigured('gone', 1, push),
      check('gone', 1, '2026-11-22T11:00:00Z'),
      pageConfigured('stays'),
      monitorConfigured('stays', 2, push),
      check('stays', 2, '2026-11-22T11:00:00Z'),
    ],
    { now: NOW },
  );
  // An import removes monitor 1 and holds its transaction (and page lock) open.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let written: () => void = () => undefined;
  const wrote = new Promise<void>((resolve) => (written = resolve));
  async function* removal(): AsyncGenerator<readonly (ParsedEvent | EventError)[]> {
    yield [
      parseEvent(
        { type: 'monitor.removed', page: 'gone', at: '2026-11-22T11:30:00Z', data: { monitor_id: 1 } },
        0,
        NOW,
      ),
    ];
    written();
    await held;
  }
  const removing = appendParsed(t.db, removal(), { now: NOW });
  await wrote;
  const missed = appendMissedHeartbeats(t.db, NOW); // reads monitor 1 as live, then waits for the page
  await untilSomeoneWaits(t.db);
  release();
  await removing;
  expect(await missed).toMatchObject({ accepted: 1, duplicates: 0, pages: ['stays'] });
  const checks = await t.db.any(sql.type(z.object({ page: z.string(), event_id: z.string() }))`
    SELECT page, event_id FROM event_log WHERE event_id LIKE 'push-missed-%'`);
  expect(checks).toEqual([
    { page: 'stays', event_id: `push-missed-2-${Date.parse('2026-11-22T11:01:00Z')}` },
  ]);
});
