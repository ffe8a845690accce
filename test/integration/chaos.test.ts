// The short chaos run (bench/chaos): every fault once against the real processes, a Redis and a
// PostgreSQL of its own; nothing lost or counted twice, no 500, no answer slower than 2 s, and
// the models equal a clean rebuild of the same log.
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../bench/chaos/report.ts';
import { runChaos } from '../../bench/chaos/runChaos.ts';

describe('chaos, short', () => {
  it('loses nothing, counts nothing twice and never answers 500 through every fault', async () => {
    const report = await runChaos({ short: true });
    const table = formatReport(report);
    expect(report.faults.size, table).toBe(7);
    expect(report.other5xx, table).toBe(0);
    expect(report.slowOver2s, table).toBe(0);
    expect(report.refused, table).toBe(0);
    expect(report.eventsAppended, table).toBe(report.eventsSent);
    expect(report.distinctIds, table).toBe(report.eventsSent);
    expect(report.eventsProjected, table).toBe(report.eventsAppended);
    expect(report.modelKeys, table).toBeGreaterThan(100);
    expect(report.modelsDiffering, table).toBe(0);
    expect(report.staleVersions, table).toBe(0);
  }, 300_000);
});
