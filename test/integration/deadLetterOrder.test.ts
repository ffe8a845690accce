// A dead letter is in PostgreSQL before the batch that skips its event commits to Redis: a crash
// between the two cannot lose the record. Projected again (after such a crash), it is recorded once.
import pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { partitionKeys } from '../../projections/store/control/keys.ts';
import { runPartition } from '../../src/projector/runPartition.ts';
import { pageHash } from '../../src/shared/pageHash.ts';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { waitForLogHorizon } from '../support/logHorizon.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';

describe('dead letters and the commit', () => {
  let env: ProjectorEnv;
  const letters = () =>
    env.t.db.anyFirst(sql.type(z.object({ position: z.string() }))`
      SELECT position::text FROM dead_letters ORDER BY id`);

  beforeAll(async () => {
    env = await startProjectorEnv({ partitions: 1 });
    await env.append(pageConfigured('ops'), monitorConfigured('ops', 3));
    await env.project();
    // Written behind the write side's back: a check without a status.
    await env.t.db.query(sql.unsafe`SELECT ensure_check_partition('2026-11-01')`);
    await env.t.db.query(sql.unsafe`
      INSERT INTO event_log (type, page, page_hash, at, data)
      VALUES ('check.recorded', 'ops', ${pageHash('ops')}, '2026-11-22T11:00:00Z', '{"monitor_id":3}'::jsonb)`);
    await waitForLogHorizon(env.t.url);
  });
  afterAll(() => env.close());

  it('records the letter before the checkpoint moves past its event, and only once', async () => {
    const checkpoint = partitionKeys(await env.tagOf(0)).checkpoint;
    const before = await env.redis.get(checkpoint);
    const ref = { prefix: env.prefix, version: 1, partition: 0, partitions: 1 };
    // Hold the table: the projector's insert waits, and we look at Redis meanwhile.
    const holder = new pg.Client({ connectionString: env.t.url });
    await holder.connect();
    await holder.query('BEGIN; LOCK TABLE dead_letters IN ACCESS EXCLUSIVE MODE');
    const run = runPartition(env.deps, ref, { mode: 'continuous' });
    for (let waited = 0; ; waited += 1) {
      const { rows } = await holder.query<{ n: number }>(`
        SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
        WHERE c.relname = 'dead_letters' AND NOT l.granted`);
      if (rows[0]!.n > 0) break;
      if (waited > 1000) throw new Error('the projector never wrote its dead letter');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await env.redis.get(checkpoint)).toBe(before); // a crash now loses nothing
    await holder.query('ROLLBACK');
    await holder.end();
    await run;
    expect(await letters()).toEqual(['3']);
    expect(await env.redis.get(checkpoint)).not.toBe(before);

    // The batch projected again, as after a crash between the record and the commit.
    await env.redis.set(checkpoint, before!);
    await runPartition(env.deps, ref, { mode: 'continuous' });
    expect(await letters()).toEqual(['3']);
  });
});
