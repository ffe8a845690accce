import { describe, expect, it } from 'vitest';
import type { PageState } from '../../../projections/types.ts';
import { CorruptReadModel } from '../../../projections/store/corruptReadModel.ts';
import {
  decodePage,
  encodeIncident,
  encodeMaintenance,
  encodePageCore,
} from '../../../projections/pageState/codec.ts';

const state: PageState = {
  settings: {
    slug: 'acme',
    title: 'Acme',
    plan: 'growth',
    customDomain: null,
    tokenHash: 'ab',
    blocked: false,
    configuredAt: null,
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

const stored = (doc: PageState) => ({
  core: encodePageCore(doc),
  updated: '1700000000000',
  incidents: Object.fromEntries(Object.values(doc.incidents).map((i) => [i.id, encodeIncident(i)])),
  maintenances: Object.fromEntries(Object.values(doc.maintenances).map((m) => [m.id, encodeMaintenance(m)])),
});

describe('page state codec', () => {
  it('round-trips a document in its parts, updatedAt through its own key', () => {
    const parts = stored(state);
    expect(JSON.parse(parts.core)).toEqual({
      settings: state.settings,
      deleted: false,
      monitors: state.monitors,
    });
    const decoded = decodePage(parts);
    expect(decoded).toEqual({ state, legacy: false });
    expect(stored(decoded!.state)).toEqual(parts);
  });

  it('decodes only the documents read, and a document that was not found as absent', () => {
    const decoded = decodePage({ ...stored(state), incidents: { i9: null }, maintenances: {} });
    expect(decoded?.state).toEqual({ ...state, incidents: {}, maintenances: {} });
  });

  it('reads a core of the single-document layout with its documents, flagged to be moved', () => {
    const { updatedAt: _apart, ...whole } = state;
    const decoded = decodePage({
      core: JSON.stringify(whole),
      updated: null,
      incidents: {},
      maintenances: {},
    });
    expect(decoded).toEqual({ state: { ...state, updatedAt: null }, legacy: true });
  });

  it('answers null for a page without a document', () => {
    expect(decodePage({ ...stored(state), core: null })).toBeNull();
  });

  it('refuses a malformed part', () => {
    const parts = stored(state);
    expect(() => decodePage({ ...parts, core: '{' })).toThrow(CorruptReadModel);
    expect(() => decodePage({ ...parts, core: '{"settings":{}}' })).toThrow(CorruptReadModel);
    expect(() => decodePage({ ...parts, incidents: { i1: '{"id":"i1"}' } })).toThrow(CorruptReadModel);
  });
});
