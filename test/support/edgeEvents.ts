// Events at and just past the bounds of docs/ingest.md ("Bounds"), for a clock pinned at
// 2026-11-22T12:00:00Z. The accepted ones must project and rebuild; the refused ones must be
// refused by both ingest doors with the field named.
export const EDGE_NOW = '2026-11-22T12:00:00Z';
/** Ten years (3,653 days) after EDGE_NOW: the latest scheduled_end admitted. */
const LATEST_SCHEDULE = '2036-11-22T12:00:00Z';

const event = (type: string, at: string, data: object) => ({ type, page: 'edge', at, data });
const maintenance = (id: string, start: string, end: string) =>
  event('maintenance.scheduled', '2026-11-22T11:00:00Z', {
    maintenance_id: id,
    title: `Window ${id}`,
    scheduled_start: start,
    scheduled_end: end,
  });
const check = (at: string, status = 'up', responseTimeMs = 100) =>
  event('check.recorded', at, { monitor_id: 9001, status, response_time_ms: responseTimeMs });

/** A page holding every kind of event at the edges of what is admitted. */
export const acceptedEdgeEvents = (): object[] => [
  event('page.configured', '2000-01-01T00:00:00Z', { title: 'Edge \u{1F600} ✓', plan: 'business' }),
  event('monitor.configured', '2000-01-01T14:00:00+14:00', {
    monitor_id: 9001,
    name: 'Edge',
    position: -1_000_000,
  }),
  event('monitor.configured', '2000-01-01T00:00:00-12:00', {
    monitor_id: Number.MAX_SAFE_INTEGER,
    name: 'Largest id',
    position: 1_000_000,
  }),
  check('2000-01-01T00:00:00Z', 'down', 86_400_000),
  check('2026-11-22T12:05:00Z', 'degraded', 0),
  check('2026-11-22T11:59:59.999999999+00:00', 'down', 1),
  event('check.recorded', '2026-11-22T12:00:00Z', {
    monitor_id: Number.MAX_SAFE_INTEGER,
    status: 'up',
    response_time_ms: 5,
  }),
  event('incident.opened', '2000-01-01T00:00:00Z', {
    incident_id: 'i'.repeat(200),
    title: 'Oldest',
    message: '',
  }),
  event('incident.updated', '2026-11-22T12:05:00Z', {
    incident_id: 'i'.repeat(200),
    state: 'resolved',
    message: 'Closed at the latest instant admitted',
  }),
  maintenance('oldest-to-latest', '2000-01-01T00:00:00Z', LATEST_SCHEDULE),
  maintenance('one-ms', '2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00.001Z'),
  event('maintenance.updated', '2026-11-22T11:00:00Z', {
    maintenance_id: 'one-ms',
    scheduled_end: '2036-11-23T01:59:59+14:00',
  }),
  event('maintenance.cancelled', '2026-11-22T11:00:00Z', { maintenance_id: 'one-ms' }),
];

/** Each refused event with the message ingest gives for it (index 0 of its batch). */
export const refusedEdgeEvents = (): [object, string][] => [
  [
    event('incident.opened', '0999-05-01T00:00:00Z', { incident_id: 'x', title: 'x', message: 'x' }),
    'at: must not be before 2000-01-01T00:00:00Z',
  ],
  [
    maintenance('far', '2026-11-23T00:00:00Z', '9999-12-31T23:59:59-23:59'),
    'data.scheduled_end: offset must be within -14:00 and +14:00',
  ],
  [
    maintenance('indefinite', '2026-11-23T00:00:00Z', '9999-12-31T00:00:00Z'),
    'data.scheduled_end: must be before 2100-01-01T00:00:00Z',
  ],
  [
    maintenance('eleven-years', '2026-11-23T00:00:00Z', '2036-11-22T12:00:00.001Z'),
    'data.scheduled_end: more than 10 years in the future',
  ],
  [
    maintenance('ancient', '1999-12-31T23:59:59Z', '2026-11-23T00:00:00Z'),
    'data.scheduled_start: must not be before 2000-01-01T00:00:00Z',
  ],
  [check('2026-11-22T10:00:00+99:99'), 'at: offset must be within -14:00 and +14:00'],
  [check('2026-11-22T10:00:00+24:00'), 'at: offset must be within -14:00 and +14:00'],
  [check('2026-11-22T10:00:00-14:01'), 'at: offset must be within -14:00 and +14:00'],
  [check('0000-01-01T00:00:00Z'), 'at: must not be before 2000-01-01T00:00:00Z'],
  [check('1999-12-31T23:59:59.999Z'), 'at: must not be before 2000-01-01T00:00:00Z'],
  [check('2026-11-22T12:05:00.001Z'), 'at: more than 5 minutes in the future'],
  [
    check('2026-11-22T10:00:00Z', 'up', 86_400_001),
    'data.response_time_ms: Number must be less than or equal to 86400000',
  ],
  [
    event('check.recorded', '2026-11-22T10:00:00Z', {
      monitor_id: Number.MAX_SAFE_INTEGER + 1,
      status: 'up',
      response_time_ms: 1,
    }),
    'data.monitor_id: Number must be less than or equal to 9007199254740991',
  ],
  [
    event('monitor.configured', '2026-11-22T10:00:00Z', { monitor_id: 9002, name: 'x', position: 1_000_001 }),
    'data.position: Number must be less than or equal to 1000000',
  ],
  [
    event('incident.opened', '2026-11-22T10:00:00Z', { incident_id: 'n', title: 'a\u0000b', message: '' }),
    'data.title: contains a NUL character or an unpaired surrogate',
  ],
  [
    event('incident.opened', '2026-11-22T10:00:00Z', { incident_id: 'n', title: 'ok', message: 'x\ud800' }),
    'data.message: contains a NUL character or an unpaired surrogate',
  ],
];
