import { describe, expect, it } from 'vitest';
import {
  maintenanceJson,
  maintenanceStatus,
  nextMaintenanceChange,
} from '../../projections/lists/maintenanceJson.ts';
import type { MaintenanceDoc } from '../../projections/types.ts';
import { ms } from './monitorSnapshot.ts';

const start = ms('2026-11-23T10:00:00Z');
const end = ms('2026-11-23T12:00:00Z');
const doc: MaintenanceDoc = {
  id: 'm1',
  title: 'Upgrade',
  description: 'DB upgrade',
  scheduledStart: start,
  scheduledEnd: end,
  components: ['DB'],
  createdAt: ms('2026-11-22T09:00:00Z'),
  started: false,
  completed: false,
  cancelled: false,
};

describe('maintenanceStatus', () => {
  it('follows the clock at both boundaries', () => {
    expect(maintenanceStatus(doc, start - 1)).toBe('scheduled');
    expect(maintenanceStatus(doc, start)).toBe('in_progress');
    expect(maintenanceStatus(doc, end - 1)).toBe('in_progress');
    expect(maintenanceStatus(doc, end)).toBe('completed');
  });

  it('lets explicit transitions win over the clock', () => {
    expect(maintenanceStatus({ ...doc, started: true }, start - 60_000)).toBe('in_progress');
    expect(maintenanceStatus({ ...doc, started: true, completed: true }, start)).toBe('completed');
    expect(maintenanceStatus({ ...doc, completed: true }, start - 60_000)).toBe('completed');
    expect(maintenanceStatus({ ...doc, started: true, completed: true, cancelled: true }, end + 1)).toBe(
      'cancelled',
    );
  });
});

describe('nextMaintenanceChange', () => {
  it('is the start, then the end, then never', () => {
    expect(nextMaintenanceChange(doc, start - 1)).toBe(start);
    expect(nextMaintenanceChange(doc, start)).toBe(end);
    expect(nextMaintenanceChange({ ...doc, started: true }, start - 1)).toBe(end);
    expect(nextMaintenanceChange(doc, end)).toBeNull();
    expect(nextMaintenanceChange({ ...doc, completed: true }, start - 1)).toBeNull();
    expect(nextMaintenanceChange({ ...doc, cancelled: true }, start - 1)).toBeNull();
  });
});

describe('maintenanceJson', () => {
  it('renders the spec fields in order with the status at now', () => {
    const json = maintenanceJson(doc, start);
    expect(json).toEqual({
      id: 'm1',
      title: 'Upgrade',
      description: 'DB upgrade',
      status: 'in_progress',
      scheduled_start: '2026-11-23T10:00:00Z',
      scheduled_end: '2026-11-23T12:00:00Z',
      components: ['DB'],
      created_at: '2026-11-22T09:00:00Z',
    });
    expect(Object.keys(json)).toEqual([
      'id',
      'title',
      'description',
      'status',
      'scheduled_start',
      'scheduled_end',
      'components',
      'created_at',
    ]);
  });
});
