// A mixed event history used by the safety tests: several pages and monitors, incidents,
// maintenances, late checks, a removed monitor and a deleted page.
import { check, monitorConfigured, pageConfigured } from './events.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export const scenario = (startIso: string, minutes: number): object[] => {
  const start = Date.parse(startIso);
  const events: object[] = [];
  const pages = ['alpha', 'bravo', 'charlie', 'delta'];
  pages.forEach((page, p) => {
    events.push(pageConfigured(page, { plan: p % 2 ? 'pro' : 'business' }, iso(start)));
    for (let m = 1; m <= 3; m += 1)
      events.push(
        monitorConfigured(page, p * 10 + m, { impact: ['major', 'partial', 'none'][m - 1] }, iso(start)),
      );
  });
  events.push({
    type: 'incident.opened',
    page: 'alpha',
    at: iso(start + 5 * 60_000),
    data: { incident_id: 'i1', title: 'Slow API', message: 'Looking', components: ['API'] },
  });
  events.push({
    type: 'maintenance.scheduled',
    page: 'bravo',
    at: iso(start),
    data: {
      maintenance_id: 'mx',
      title: 'DB upgrade',
      scheduled_start: iso(start + 30 * 60_000),
      scheduled_end: iso(start + 90 * 60_000),
    },
  });
  for (let i = 0; i < minutes; i += 1) {
    const at = start + i * 60_000;
    pages.forEach((page, p) => {
      for (let m = 1; m <= 3; m += 1) {
        const id = p * 10 + m;
        if (page === 'charlie' && m === 3 && i > minutes / 2) continue; // removed below
        const down = (i + id) % 17 < 3;
        const degraded = (i * id) % 11 === 0;
        events.push(
          check(
            page,
            id,
            iso(at + id * 1000),
            down ? 'down' : degraded ? 'degraded' : 'up',
            80 + ((i * 7 + id * 13) % 200),
          ),
        );
      }
    });
    if (i === Math.floor(minutes / 2)) {
      events.push({ type: 'monitor.removed', page: 'charlie', at: iso(at), data: { monitor_id: 23 } });
      events.push({
        type: 'incident.updated',
        page: 'alpha',
        at: iso(at),
        data: { incident_id: 'i1', state: 'resolved', message: 'Fixed' },
      });
    }
    // Late checks: 20 minutes late, but within 24 h.
    if (i % 25 === 24) events.push(check('alpha', 1, iso(at - 20 * 60_000 + 500), 'down', 999));
  }
  events.push({ type: 'page.deleted', page: 'delta', at: iso(start + minutes * 60_000), data: {} });
  return events;
};
