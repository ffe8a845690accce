// The acceptance run of the projector: N = 1, 2 and 4 worker processes share eight partitions
// while events arrive; one of them is killed (SIGKILL) mid-batch. With one or two, a new process
// joins (a worker added); with four, the other three take its partitions over (a worker removed).
// The models must equal what a single-process rebuild of the same log gives: nothing lost,
// nothing counted twice; the lag returns to zero (the time it took is printed, not asserted).
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { appendEvents } from '../../src/eventLog/appendEvents.ts';
import { projectionStatus } from '../../src/projector/projectionStatus.ts';
import { createProjectorQueue } from '../../src/projector/queue.ts';
import { readActive } from '../../src/store/control/versions.ts';
import { simulatedEvents } from '../support/simulatedLog.ts';
import { expectEqualToRebuild, useWorkerFleet, waitForLagZero } from '../support/workerFleet.ts';

const PAGES = 20;
const MONITORS = 5;
const CHECKS = 400; // 20 × 5 × 400 = 40,000 checks per run, plus configuration and incidents
const PARTITIONS = 8;

describe.each([
  { workers: 1, replace: true },
  { workers: 2, replace: true },
  { workers: 4, replace: false },
])('$workers worker processes, eight partitions, one killed', ({ workers: count, replace }) => {
  const { env, fleet } = useWorkerFleet();

  it('projects every event exactly once', async () => {
    const { t, redis, queueRedis, prefix } = env;
    const first = fleet.start(PARTITIONS);
    for (let i = 1; i < count; i += 1) fleet.start(PARTITIONS);
    while (!(await readActive(redis, prefix))) await sleep(100); // the workers built the empty models
    // Events arrive while the workers project; one worker is killed half way.
    const queue = createProjectorQueue(queueRedis, prefix);
    let total = 0;
    let batch: object[] = [];
    let killed = false;
    const flush = async () => {
      const result = await appendEvents(t.db, batch, { now: new Date() });
      total += result.accepted;
      await queue.wakePages(result.pages, PARTITIONS);
      batch = [];
    };
    for (const event of simulatedEvents(PAGES, MONITORS, CHECKS, Date.now() - 60_000)) {
      batch.push(event);
      if (batch.length < 5000) continue;
      await flush();
      if (!killed && total > (PAGES * MONITORS * CHECKS) / 2) {
        // The kill must land mid-work: a worker slow to start (a loaded machine) has projected
        // nothing yet, so wait until it has begun.
        const started = Date.now();
        let status = await projectionStatus(t.db, redis, prefix);
        while (Number(status.projected_position) === 0 && Date.now() - started < 30_000) {
          await sleep(100);
          status = await projectionStatus(t.db, redis, prefix);
        }
        expect(Number(status.projected_position)).toBeGreaterThan(0);
        await fleet.stop(first, 'SIGKILL');
        if (replace) fleet.start(PARTITIONS);
        killed = true;
      }
    }
    if (batch.length > 0) await flush();
    await queue.close();
    expect(total).toBe(PAGES * MONITORS * CHECKS + PAGES * (MONITORS + 2));
    const appended = Date.now();
    const zeroSince = await waitForLagZero(t, redis, prefix, total);
    console.log(
      `${count} workers: lag 0 ${((zeroSince - appended) / 1000).toFixed(1)} s after the last append`,
    );
    await fleet.stopAll('SIGTERM');

    const active = (await readActive(redis, prefix))!;
    expect(active).toEqual({ version: 1, partitions: PARTITIONS }); // built once, by one of the workers
    await expectEqualToRebuild(t, redis, prefix, active, PAGES * MONITORS * 3);
  }, 300_000);
});
