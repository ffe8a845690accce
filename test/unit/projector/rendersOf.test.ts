// Which pages a render pass renders, and how much of each, from the render sets.
import { describe, expect, it } from 'vitest';
import { rendersOf } from '../../../src/projector/collectRenders.ts';

const empty = { dirty: [], incidents: [], maintenances: [], availability: [], due: [] };

describe('rendersOf', () => {
  it('given marks from batches, renders those pages with just the parts marked, and clears the marks', () => {
    const renders = rendersOf({
      ...empty,
      dirty: ['a', 'b'],
      incidents: ['a'],
      availability: [
        { slug: 'b', monitorId: 2 },
        { slug: 'b', monitorId: 5 },
      ],
    });
    expect(renders).toEqual([
      {
        slug: 'a',
        scope: { incidents: true, maintenances: false, availability: new Set() },
        clear: [
          ['dirty', 'a'],
          ['dirtyIncidents', 'a'],
        ],
      },
      {
        slug: 'b',
        scope: { incidents: false, maintenances: false, availability: new Set([2, 5]) },
        clear: [
          ['dirty', 'b'],
          ['dirtyAvailability', 'b|2'],
          ['dirtyAvailability', 'b|5'],
        ],
      },
    ]);
  });

  it('given a tick, renders only the pages whose clock-dependent parts are due: their maintenances the clock moved and all availability', () => {
    const renders = rendersOf({
      ...empty,
      due: ['b'],
      availability: [{ slug: 'b', monitorId: 1 }],
    });
    expect(renders.map((r) => [r.slug, r.scope])).toEqual([
      ['b', { incidents: false, maintenances: false, maintenanceIds: new Set(), availability: 'all' }],
    ]);
  });

  it('given maintenance marks, renders the lists of the maintenances that changed, or whole after a page event', () => {
    const renders = rendersOf({
      ...empty,
      maintenances: ['b'],
      maintenanceDocs: [
        { slug: 'a', id: 'm1' },
        { slug: 'a', id: 'm2' },
        { slug: 'b', id: 'm3' },
      ],
    });
    expect(renders.map((r) => [r.slug, r.scope, r.clear])).toEqual([
      [
        'b',
        { incidents: false, maintenances: true, availability: new Set() },
        [
          ['dirtyMaintenances', 'b'],
          ['dirtyMaintenanceDocs', 'b|m3'],
        ],
      ],
      [
        'a',
        {
          incidents: false,
          maintenances: false,
          maintenanceIds: new Set(['m1', 'm2']),
          availability: new Set(),
        },
        [
          ['dirtyMaintenanceDocs', 'a|m1'],
          ['dirtyMaintenanceDocs', 'a|m2'],
        ],
      ],
    ]);
  });
});
