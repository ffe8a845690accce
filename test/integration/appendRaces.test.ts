// Concurrent append transactions against real PostgreSQL: two imports that meet the same pages
// in opposite orders both commit (no deadlock), and an event found to be a duplicate of one a
// concurrent batch committed changes nothing in the write model.
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appendEvents, appendParsed } from '../../src/eventLog/appendEvents.ts';
import { parseEvent, type EventError, type ParsedEvent } from '../../src/events/parseEvent.ts';
import { pageHash } from '../../src/shared/pageHash.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { untilSomeoneWaits } from '../support/lockWaits.ts';
import { freshDatabase, type TestDatabase } from '../support/testEnv.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
type Chunk = readonly (ParsedEvent | EventError)[];

/** A gate a test opens when it wants the held transaction to go on. */
const gate = () => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open: () => open(), opened };
};

/** An import of two chunks that waits at `between` after writing the first (its transaction open). */
async function* twoChunks(first: object[], between: Promise<void>, second: object[]): AsyncGenerator<Chunk> {
  yield first.map((e, i) => parseEvent(e, i, NOW));
  await between;
  yield second.map((e, i) => parseEvent(e, first.length + i, NOW));
}

describe('concurrent appends', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase();
  });
  afterAll(() => t.close());

  const someoneWaits = () => untilSomeoneWaits(t.db);
  const pagesInWriteModel = () =>
    t.db.anyFirst(sql.type(z.object({ slug: z.string() }))`SELECT slug FROM pages ORDER BY slug`);

  it('commits two imports that lock the same pages in opposite orders', async () => {
    // Two pages whose lock keys sort one way; each import meets them the other way round.
    const [low, high] = ['north', 'south', 'east', 'west']
      .map((slug) => [slug, pageHash(slug) | 0] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([slug]) => slug);
    const gateA = gate();
    const gateB = gate();
    const firstOfA = gate();
    const a = appendParsed(
      t.db,
      twoChunks([pageConfigured(high!)], gateA.opened, [pageConfigured(low!, { title: 'A' })]),
      { now: NOW, onChunk: firstOfA.open },
    );
    await firstOfA.opened; // A holds its high page
    const firstOfB = gate();
    const b = appendParsed(
      t.db,
      twoChunks([pageConfigured(low!)], gateB.opened, [pageConfigured(high!, { title: 'B' })]),
      { now: NOW, onChunk: firstOfB.open },
    );
    await Promise.race([firstOfB.opened, someoneWaits()]); // B holds its low page, or waits to start
    gateA.open();
    gateB.open();
    const results = await Promise.allSettled([a, b]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await pagesInWriteModel()).toEqual([low, high].sort());
  });

  it('leaves the write model alone for an event that turns out to be a duplicate', async () => {
    // The same id sent for two pages (an agent reusing ids): whoever commits first wins.
    const held = gate();
    const claimed = gate();
    const first = appendParsed(
      t.db,
      twoChunks([{ ...pageConfigured('first-owner'), id: 'shared-id' }], held.opened, []),
      { now: NOW, onChunk: claimed.open },
    );
    await claimed.opened; // its transaction holds the id, uncommitted
    const second = appendEvents(t.db, [{ ...pageConfigured('second-owner'), id: 'shared-id' }], { now: NOW });
    await someoneWaits(); // the second waits for the first's claim of the id
    held.open();
    expect(await first).toMatchObject({ accepted: 1, duplicates: 0 });
    expect(await second).toMatchObject({ accepted: 0, duplicates: 1 });
    const slugs = await pagesInWriteModel();
    expect(slugs).toContain('first-owner');
    expect(slugs).not.toContain('second-owner');
    // The log has no such page, so neither has the write model: its events are refused.
    await expect(
      appendEvents(t.db, [monitorConfigured('second-owner', 7)], { now: NOW }),
    ).rejects.toMatchObject({ details: [{ index: 0, message: 'page "second-owner" does not exist' }] });
  });
});
