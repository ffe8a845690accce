import { describe, expect, it } from 'vitest';
import type { PageState } from '../../../projections/types.ts';
import { CorruptReadModel } from '../../../src/models/corruptReadModel.ts';
import { decodePageState, encodePageState } from '../../../src/models/pageState/codec.ts';

const state: PageState = {
  settings: {
    slug: 'acme',
    title: 'Acme',
    plan: 'growth',
    customDomain: null,
    tokenHash: 'ab',
    blocked: false,
  },
  deleted: false,
  updatedAt: 1_700_000_000_000,
  monitors: { '1': { id: 1, name: 'API', type: 'http', impact: 'partial', position: null } },
  incidents: {
    i1: {
      id: 'i1',
      title: 'Down',
      state: 'resolved',
      startedAt: 1,
      resolvedAt: 2,
      components: ['api'],
      updates: [{ status: 'resolved', message: 'Fixed', createdAt: 2 }],
    },
  },
  maintenances: {
    m1: {
      id: 'm1',
      title: 'Upgrade',
      description: '',
      scheduledStart: 10,
      scheduledEnd: 20,
      components: [],
      createdAt: 5,
      started: false,
      completed: false,
      cancelled: true,
    },
  },
};

describe('page state codec', () => {
  it('round-trips a document, updatedAt through its own key', () => {
    const text = encodePageState(state);
    expect(JSON.parse(text)).not.toHaveProperty('updatedAt');
    const decoded = decodePageState(text, '1700000000000');
    expect(decoded).toEqual(state);
    expect(encodePageState(decoded!)).toBe(text);
  });

  it('answers null for a page without a document, and no updatedAt without its key', () => {
    expect(decodePageState(null, '5')).toBeNull();
    expect(decodePageState(encodePageState(state), null)?.updatedAt).toBeNull();
  });

  it('refuses a malformed document', () => {
    expect(() => decodePageState('{', null)).toThrow(CorruptReadModel);
    expect(() => decodePageState('{"settings":{}}', null)).toThrow(CorruptReadModel);
  });
});
