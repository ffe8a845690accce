// A large, realistic log for the multi-process tests: P pages × M monitors with checks every
// 30 s ending near `endMs`, a few incidents and maintenances, in the order to append them.
import { check, monitorConfigured, pageConfigured } from './events.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export function* simulatedEvents(pages: number, monitors: number, checksPerMonitor: number, endMs: number) {
  const start = endMs - checksPerMonitor * 30_000;
  for (let p = 0; p < pages; p += 1) {
    const page = `sim-${p}`;
    yield pageConfigured(page, { plan: 'business' }, iso(start));
    for (let m = 0; m < monitors; m += 1)
      yield monitorConfigured(page, p * 1000 + m + 1, { impact: 'partial' }, iso(start));
    yield {
      type: 'incident.opened',
      page,
      at: iso(start + 60_000),
      data: { incident_id: `inc-${p}`, title: 'Degraded API', message: 'Investigating' },
    };
  }
  for (let i = 0; i < checksPerMonitor; i += 1) {
    for (let p = 0; p < pages; p += 1)
      for (let m = 0; m < monitors; m += 1) {
        const id = p * 1000 + m + 1;
        const status = (i + id) % 97 < 4 ? 'down' : (i * id) % 53 === 0 ? 'degraded' : 'up';
        yield check(
          `sim-${p}`,
          id,
          iso(start + i * 30_000 + (id % 29) * 1000),
          status,
          50 + ((i * 31 + id * 7) % 400),
        );
      }
  }
}
