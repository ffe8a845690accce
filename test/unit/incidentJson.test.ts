import { describe, expect, it } from 'vitest';
import { incidentJson } from '../../projections/lists/incidentJson.ts';
import type { IncidentDoc } from '../../projections/types.ts';
import { ms } from './monitorSnapshot.ts';

const doc: IncidentDoc = {
  id: 'i1',
  title: 'API down',
  state: 'resolved',
  startedAt: ms('2026-11-22T10:00:00Z'),
  resolvedAt: ms('2026-11-22T11:00:00.250Z'),
  components: ['API'],
  updates: [
    { status: 'investigating', message: 'Looking', createdAt: ms('2026-11-22T10:00:00Z') },
    { status: 'resolved', message: 'Fixed', createdAt: ms('2026-11-22T11:00:00.250Z') },
  ],
};

describe('incidentJson', () => {
  it('renders the spec fields in order, resolved_at on a resolved incident', () => {
    const json = incidentJson(doc);
    expect(json).toEqual({
      id: 'i1',
      title: 'API down',
      state: 'resolved',
      started_at: '2026-11-22T10:00:00Z',
      resolved_at: '2026-11-22T11:00:00.250Z',
      components: ['API'],
      updates: [
        { status: 'investigating', message: 'Looking', created_at: '2026-11-22T10:00:00Z' },
        { status: 'resolved', message: 'Fixed', created_at: '2026-11-22T11:00:00.250Z' },
      ],
    });
    expect(Object.keys(json)).toEqual([
      'id',
      'title',
      'state',
      'started_at',
      'resolved_at',
      'components',
      'updates',
    ]);
  });

  it('omits resolved_at on an active incident', () => {
    const json = incidentJson({ ...doc, state: 'monitoring', resolvedAt: ms('2026-11-22T11:00:00Z') });
    expect('resolved_at' in json).toBe(false);
  });
});
