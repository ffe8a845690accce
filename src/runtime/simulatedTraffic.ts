// The traffic of `npm run simulate`: pages and monitors derived from the seed, checks with rare
// down runs and degraded spells, and incident and maintenance stories step by step.
import {
  DEMO_MONITORS,
  demoCheckData,
  demoUniform,
  type CheckData,
  type DemoMonitor,
} from '../demo/demoEvents.ts';
import { MINUTE_MS, formatTimestamp } from '../shared/time.ts';
import { must } from '../shared/must.ts';

type Lane = { pages: string[]; monitors: (DemoMonitor & { page: string })[] };
export type Emitted = { type: string; page: string; at: string; data: Record<string, unknown> };

const IMPACTS = ['major', 'partial', 'degraded', 'none'] as const;
const BASES = [20, 45, 90, 150, 250, 400];

/** The item whose turn `n` is, taking `items` (never empty) round and round. */
export const roundRobin = <T>(items: readonly T[], n: number): T =>
  must(items[n % items.length], 'a round-robin item');

/** Pages split between two lanes (appenders), each with its monitors. */
export const buildLanes = (args: Readonly<{ pages: number; monitors: number }>, seed: number): Lane[] => {
  const lanes: Lane[] = Array.from({ length: Math.min(2, args.pages) }, () => ({ pages: [], monitors: [] }));
  for (let n = 1; n <= args.pages; n += 1) {
    const page = `sim-${seed}-${n}`;
    const lane = roundRobin(lanes, n);
    lane.pages.push(page);
    for (let m = 1; m <= args.monitors; m += 1) {
      const id = seed * 1_000_000 + (n - 1) * args.monitors + m;
      const shape = roundRobin(DEMO_MONITORS, id);
      lane.monitors.push({
        ...shape,
        id,
        page,
        name: `${shape.name} ${m}`,
        impact: roundRobin(IMPACTS, m),
        baseMs: roundRobin(BASES, id),
        offsetMs: (id % 60) * 1000,
      });
    }
  }
  return lanes;
};

/** Rare down runs of a few checks, and degraded spells: decided per monitor and instant. */
export const statusStepper = () => {
  const left = new Map<number, { status: CheckData['status']; n: number }>();
  return (monitor: DemoMonitor, atMs: number): CheckData['status'] => {
    let run = left.get(monitor.id);
    if (!run || run.n === 0) {
      const u = demoUniform(monitor.id, atMs, 21);
      run =
        u < 0.0002
          ? { status: 'down', n: 1 + Math.floor(demoUniform(monitor.id, atMs, 22) * 10) }
          : u < 0.0005
            ? { status: 'degraded', n: 5 }
            : { status: 'up', n: 0 };
      left.set(monitor.id, run);
    }
    if (run.n === 0) return 'up';
    run.n -= 1;
    return run.status;
  };
};

export const check = (
  monitor: DemoMonitor & { page: string },
  atMs: number,
  status: CheckData['status'],
): Emitted => ({
  type: 'check.recorded',
  page: monitor.page,
  at: formatTimestamp(atMs),
  data: demoCheckData(monitor, atMs, status),
});

/** Incidents open → identified → monitoring → resolved, maintenances scheduled then started, completed or cancelled. */
export const storyTeller = (seed: number) => {
  const incidents = new Map<string, { id: string; step: number }>();
  const maintenances = new Map<string, { id: string; step: number }>();
  let serial = 0;
  const states = ['identified', 'monitoring', 'resolved'];
  return (page: string, atMs: number): Emitted => {
    const at = formatTimestamp(atMs);
    serial += 1;
    if (serial % 3 !== 0) {
      const open = incidents.get(page);
      if (!open) {
        const id = `sim-${seed}-inc-${serial}`;
        incidents.set(page, { id, step: 0 });
        return {
          type: 'incident.opened',
          page,
          at,
          data: {
            incident_id: id,
            title: 'Elevated error rates',
            message: 'We are investigating.',
            components: ['API'],
          },
        };
      }
      const state = must(states[open.step], 'the next state of an open incident');
      open.step += 1;
      if (state === 'resolved') incidents.delete(page);
      return {
        type: 'incident.updated',
        page,
        at,
        data: { incident_id: open.id, state, message: `Status: ${state}.` },
      };
    }
    const planned = maintenances.get(page);
    if (!planned) {
      const id = `sim-${seed}-mnt-${serial}`;
      maintenances.set(page, { id, step: 0 });
      const start = atMs + 10 * MINUTE_MS;
      return {
        type: 'maintenance.scheduled',
        page,
        at,
        data: {
          maintenance_id: id,
          title: 'Database maintenance',
          scheduled_start: formatTimestamp(start),
          scheduled_end: formatTimestamp(start + 60 * MINUTE_MS),
        },
      };
    }
    const type =
      planned.step === 0
        ? serial % 4 === 0
          ? 'maintenance.cancelled'
          : 'maintenance.started'
        : 'maintenance.completed';
    planned.step += 1;
    if (type !== 'maintenance.started') maintenances.delete(page);
    return { type, page, at, data: { maintenance_id: planned.id } };
  };
};
