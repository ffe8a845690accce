// Changing the partition count without an outage (docs/operations.md): two worker processes run
// with four partitions while events arrive; `rebuild` with six partitions builds a new version
// beside the active one and activates it; the running workers follow the active version. At the
// end the six-partition models equal a rebuild of the same log, and the log has its index for six.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'slonik';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { partitionIndexName } from '../../src/eventLog/partitionIndex.ts';
import { createActiveVersionReader } from '../../src/store/control/activeVersionReader.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { createProjectorQueue, createWake } from '../../src/projector/queue.ts';
import { rebuild } from '../../src/projector/rebuild.ts';
import { simulatedEvents } from '../support/simulatedLog.ts';
import {
  expectEqualToRebuild,
  inProcessDeps,
  useWorkerFleet,
  waitForLagZero,
} from '../support/workerFleet.ts';

const PAGES = 12;
const MONITORS = 5;
const CHECKS = 400;

describe('changing the partition count while workers run', () => {
  const { env, fleet } = useWorkerFleet();

  it('goes from four to six partitions with nothing lost or counted twice', async () => {
    const { t, redis, queueRedis, prefix } = env;
    fleet.start(4);
    fleet.start(4);
    while (!(await readActive(redis, prefix))) await sleep(100);
    const queue = createProjectorQueue(queueRedis, prefix);
    const wake = createWake(queue, createActiveVersionReader(redis, prefix, { ttlMs: 0 }));
    const deps = inProcessDeps(t, redis);
    let total = 0;
    let batch: object[] = [];
    let change: Promise<unknown> | null = null;
    for (const event of simulatedEvents(PAGES, MONITORS, CHECKS, Date.now() - 60_000)) {
      batch.push(event);
      if (batch.length < 2000) continue;
      const result = await appendEvents(t.db, batch, { now: new Date() });
      total += result.accepted;
      await wake(result.pages);
      batch = [];
      // Half way, the new count is built beside the running workers while appends go on.
      if (change === null && total > 12_000) change = rebuild(deps, { prefix, partitions: 6, graceMs: 500 });
    }
    const result = await appendEvents(t.db, batch, { now: new Date() });
    total += result.accepted;
    await wake(result.pages);
    await change;
    await queue.close();
    expect(await readActive(redis, prefix)).toEqual({ version: 2, partitions: 6 });
    await waitForLagZero(t, redis, prefix, total);
    await fleet.stopAll('SIGTERM');

    const valid = await t.db.maybeOneFirst(sql.type(z.object({ valid: z.boolean() }))`
      SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = ${partitionIndexName(6)}`);
    expect(valid).toBe(true);
    await expectEqualToRebuild(t, redis, prefix, { version: 2, partitions: 6 }, PAGES * MONITORS * 3);
  }, 300_000);
});
