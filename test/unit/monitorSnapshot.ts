// Builders shared by the unit tests of projections/: a monitor snapshot with no data by default.
import type { HourBucket, MinuteBucket, MonitorSnapshot } from '../../projections/types.ts';

export const ms = (iso: string): number => Date.parse(iso);

export const aMonitor = (overrides: Partial<MonitorSnapshot> = {}): MonitorSnapshot => ({
  id: 1,
  name: 'API',
  type: 'http',
  impact: 'partial',
  position: null,
  firstAt: null,
  lastStatus: null,
  down: [],
  openDownStart: null,
  hours: new Map(),
  minutes: new Map(),
  ...overrides,
});

export const hours = (entries: Record<string, HourBucket>): Map<number, HourBucket> =>
  new Map(Object.entries(entries).map(([iso, bucket]) => [ms(iso), bucket]));

export const minutes = (entries: Record<string, Partial<MinuteBucket>>): Map<number, MinuteBucket> =>
  new Map(Object.entries(entries).map(([iso, b]) => [ms(iso), { n: 0, rt: 0, d: 0, g: 0, ...b }]));
