import { describe, expect, it } from 'vitest';
import type { PageState } from '../../../projections/types.ts';
import { decodeAccess, encodeAccess } from '../../../projections/access/codec.ts';
import { CorruptReadModel } from '../../../projections/store/corruptReadModel.ts';

const page = (settings: Partial<PageState['settings']>, deleted = false): PageState => ({
  settings: {
    slug: 'a',
    title: 'A',
    plan: 'pro',
    customDomain: null,
    tokenHash: null,
    blocked: false,
    configuredAt: null,
    ...settings,
  },
  deleted,
  updatedAt: null,
  monitors: {},
  incidents: {},
  maintenances: {},
});

describe('access codec', () => {
  it('round-trips active, blocked and deleted pages', () => {
    expect(decodeAccess(encodeAccess(page({ tokenHash: 'h' })))).toEqual({
      state: 'active',
      plan: 'pro',
      tokenHash: 'h',
      title: 'A',
      locale: 'en',
    });
    expect(decodeAccess(encodeAccess(page({ locale: 'pt-BR' })))).toMatchObject({ locale: 'pt-BR' });
    // Documents written before pages had a language: the default.
    expect(decodeAccess('{"state":"active","plan":"pro","token_hash":null,"title":"A"}')).toMatchObject({
      locale: 'en',
    });
    expect(decodeAccess(encodeAccess(page({ blocked: true })))).toMatchObject({ state: 'blocked' });
    expect(decodeAccess(encodeAccess(page({}, true)))).toEqual({ state: 'deleted' });
    expect(encodeAccess(null)).toBe('{"state":"deleted","plan":null,"token_hash":null}');
  });

  it('reads a missing document as an unknown page and refuses a malformed one', () => {
    expect(decodeAccess(null)).toBeNull();
    expect(() => decodeAccess('nope')).toThrow(CorruptReadModel);
    expect(() => decodeAccess('{"state":"active","plan":null,"token_hash":null}')).toThrow(CorruptReadModel);
  });
});
