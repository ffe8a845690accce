import { describe, expect, it } from 'vitest';
import { CorruptReadModel } from '../../../projections/store/corruptReadModel.ts';
import { decodeDomainClaims, encodeDomainClaim, resolveDomains } from '../../../projections/domains/codec.ts';

const partition = (claims: Record<string, [domain: string, since: string]>) =>
  decodeDomainClaims(
    Object.fromEntries(
      Object.entries(claims).map(([slug, [domain, since]]) => [slug, encodeDomainClaim({ domain, since })]),
    ),
  );

describe('domain claims', () => {
  it('round-trips a claim', () => {
    const text = encodeDomainClaim({ domain: 'status.acme.test', since: '42' });
    expect(text).toBe('{"domain":"status.acme.test","since":"42"}');
    expect(decodeDomainClaims({ acme: text })).toEqual(
      new Map([['acme', { domain: 'status.acme.test', since: '42' }]]),
    );
  });

  it('refuses a malformed claim', () => {
    expect(() => decodeDomainClaims({ acme: '{"domain":"x"}' })).toThrow(CorruptReadModel);
    expect(() => decodeDomainClaims({ acme: 'status.acme.test' })).toThrow(CorruptReadModel);
  });

  it('maps each domain to its page over every partition', () => {
    expect(
      resolveDomains([
        partition({ acme: ['status.acme.test', '5'] }),
        partition({ beta: ['status.beta.test', '9'] }),
      ]),
    ).toEqual(
      new Map([
        ['status.acme.test', 'acme'],
        ['status.beta.test', 'beta'],
      ]),
    );
  });

  it('gives a domain claimed twice (partitions catching up apart) to the later claim, by numeric position', () => {
    const older = partition({ old: ['status.moved.test', '999'] });
    const newer = partition({ new: ['status.moved.test', '1000'] });
    expect(resolveDomains([older, newer]).get('status.moved.test')).toBe('new');
    expect(resolveDomains([newer, older]).get('status.moved.test')).toBe('new');
  });
});
