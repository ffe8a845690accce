import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { parseAllowHosts } from '../../../src/notify/delivery/allowHosts.ts';
import { checkedLookup, type Resolve } from '../../../src/notify/delivery/checkedLookup.ts';

const answering =
  (addresses: LookupAddress[]): Resolve =>
  () =>
    Promise.resolve(addresses);

// The socket asks for one address, or for all of them (Node's happy eyeballs): both are checked.
const lookUp = (resolve: Resolve, allow: string, all: boolean) =>
  new Promise<unknown>((done) => {
    checkedLookup(parseAllowHosts(allow), resolve)('hooks.test', { all }, (error, address, family) => {
      done(
        error
          ? { error: (error as { code?: string }).code }
          : all
            ? { addresses: address }
            : { address, family },
      );
    });
  });

describe('checked lookup', () => {
  const publicAddresses = [
    { address: '2606:4700::1111', family: 6 },
    { address: '93.184.215.14', family: 4 },
  ];

  it('hands on public addresses, one or all', async () => {
    expect(await lookUp(answering(publicAddresses), '', false)).toEqual({
      address: '2606:4700::1111',
      family: 6,
    });
    expect(await lookUp(answering(publicAddresses), '', true)).toEqual({ addresses: publicAddresses });
  });

  it('refuses when any answer is refused, unless the host is allowed', async () => {
    const mixed = answering([...publicAddresses, { address: '::ffff:169.254.169.254', family: 6 }]);
    expect(await lookUp(mixed, '', false)).toEqual({ error: 'EREFUSEDDESTINATION' });
    expect(await lookUp(mixed, '', true)).toEqual({ error: 'EREFUSEDDESTINATION' });
    expect(await lookUp(mixed, 'HOOKS.test', false)).toEqual({ address: '2606:4700::1111', family: 6 });
  });

  it('refuses a name without addresses and passes on resolver errors', async () => {
    expect(await lookUp(answering([]), '', false)).toEqual({ error: 'EREFUSEDDESTINATION' });
    const failing: Resolve = () => Promise.reject(Object.assign(new Error('x'), { code: 'ENOTFOUND' }));
    expect(await lookUp(failing, '', false)).toEqual({ error: 'ENOTFOUND' });
  });
});
