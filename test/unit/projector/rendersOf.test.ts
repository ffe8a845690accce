// Which pages a render pass renders, and how much of each, from the render sets.
import { describe, expect, it } from 'vitest';
import { rendersOf } from '../../../src/projector/collectRenders.ts';

const empty = { dirty: [], incidents: [], maintenances: [], availability: [], all: [], due: [] };

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

  it('given a tick, renders every page, and fully those whose clock-dependent parts are due', () => {
    const renders = rendersOf({
      ...empty,
      all: ['a', 'b'],
      due: ['b'],
      availability: [{ slug: 'b', monitorId: 1 }],
    });
    expect(renders.map((r) => [r.slug, r.scope])).toEqual([
      ['a', { incidents: false, maintenances: false, availability: new Set() }],
      ['b', { incidents: false, maintenances: true, availability: 'all' }],
    ]);
  });
});
