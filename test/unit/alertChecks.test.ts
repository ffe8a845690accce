// Alert state as checks (src/integrations/alertChecks.ts): the worst alert firing on a monitor
// decides its status at each alert's start and end, whichever notification reported each alert.
import { describe, expect, it } from 'vitest';
import { alertCheckId, planAlertChecks, type MappingOptions } from '../../src/integrations/alertChecks.ts';
import { AlertmanagerPayload } from '../../src/integrations/alertPayload.ts';

const options: MappingOptions = {
  monitorLabel: 'statuspage_monitor',
  componentLabel: 'statuspage_component',
  degraded: new Set(['warning']),
};
const monitors = [
  { id: 1, name: 'API', type: 'http', pushIntervalS: null, pushGraceS: null },
  { id: 2, name: 'Web', type: 'http', pushIntervalS: null, pushGraceS: null },
];
const alertsOf = (alerts: object[]) =>
  AlertmanagerPayload.parse({ version: '4', status: 'firing', receiver: 'r', groupKey: 'g', alerts }).alerts;
const alert = (fingerprint: string, severity: string, startsAt: string, endsAt?: string) => ({
  status: endsAt === undefined ? 'firing' : 'resolved',
  labels: { statuspage_monitor: '1', severity },
  startsAt,
  endsAt: endsAt ?? '0001-01-01T00:00:00Z',
  fingerprint,
});
const shape = (plan: ReturnType<typeof planAlertChecks>) =>
  plan.checks.map((c) => [c.path, c.event.at, c.event.data.status]);

describe('planAlertChecks', () => {
  it('lets the worst firing alert decide, at every start and end', () => {
    // A degraded 10:00–10:30, B down 10:10–10:20, both in one notification.
    const plan = planAlertChecks({
      page: 'acme',
      alerts: alertsOf([
        alert('a', 'warning', '2026-11-22T10:00:00Z', '2026-11-22T10:30:00Z'),
        alert('b', 'critical', '2026-11-22T10:10:00Z', '2026-11-22T10:20:00Z'),
      ]),
      monitors,
      options,
      known: [],
    });
    expect(shape(plan)).toEqual([
      ['alerts.0.startsAt', '2026-11-22T10:00:00Z', 'degraded'],
      ['alerts.0.endsAt', '2026-11-22T10:30:00Z', 'up'],
      ['alerts.1.startsAt', '2026-11-22T10:10:00Z', 'down'],
      ['alerts.1.endsAt', '2026-11-22T10:20:00Z', 'degraded'],
    ]);
  });

  it('remembers alerts of earlier notifications, and keeps a known resolution', () => {
    const known = [
      {
        monitorId: 1,
        fingerprint: 'b',
        startsMs: Date.parse('2026-11-22T10:10:00Z'),
        status: 'down' as const,
        endsMs: null,
      },
    ];
    // A resolves while B (known, firing) still fires: the monitor stays down.
    const plan = planAlertChecks({
      page: 'acme',
      alerts: alertsOf([alert('a', 'critical', '2026-11-22T10:00:00Z', '2026-11-22T10:15:00Z')]),
      monitors,
      options,
      known,
    });
    expect(shape(plan)).toEqual([
      ['alerts.0.startsAt', '2026-11-22T10:00:00Z', 'down'],
      ['alerts.0.endsAt', '2026-11-22T10:15:00Z', 'down'],
    ]);
    // A late firing notification of an alert known resolved does not undo the resolution.
    const resolved = [{ ...known[0]!, endsMs: Date.parse('2026-11-22T10:40:00Z') }];
    const late = planAlertChecks({
      page: 'acme',
      alerts: alertsOf([alert('b', 'critical', '2026-11-22T10:10:00Z')]),
      monitors,
      options,
      known: resolved,
    });
    expect(late.rows).toEqual(resolved);
    expect(shape(late)).toEqual([
      ['alerts.0.startsAt', '2026-11-22T10:10:00Z', 'down'],
      ['alerts.0.endsAt', '2026-11-22T10:40:00Z', 'up'],
    ]);
  });

  it('derives ids from page, monitor, fingerprint, start and edge', () => {
    const row = { monitorId: 1, fingerprint: 'a', startsMs: 1, status: 'down' as const, endsMs: null };
    const ids = new Set([
      alertCheckId('acme', row, 'firing'),
      alertCheckId('acme', row, 'resolved'),
      alertCheckId('beta', row, 'firing'),
      alertCheckId('acme', { ...row, startsMs: 2 }, 'firing'),
      alertCheckId('acme', { ...row, monitorId: 2 }, 'firing'),
    ]);
    expect(ids.size).toBe(5);
    expect(alertCheckId('acme', row, 'firing')).toBe(
      alertCheckId('acme', { ...row, status: 'degraded' }, 'firing'),
    );
  });
});
