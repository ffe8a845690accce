// Who counts as one client for the per-client bounds (token throttle, live-stream cap).
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/http/clientKey.ts';

describe('client key', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(
      ['::ffff:203.0.113.7', '::FFFF:203.0.113.7', '::ffff:cb00:7107', '0:0:0:0:0:ffff:cb00:7107'].map(
        clientKey,
      ),
    ).toEqual(Array(4).fill('203.0.113.7'));
    expect(clientKey('::ffff:0:203.0.113.7')).toBe('0:0:0:0::/64'); // IPv4-translated: not mapped
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    expect(
      [
        '2001:db8:1:2::1',
        '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
        '2001:DB8:1:2:a:b:c:d',
        '2001:db8:1:2::1%eth0',
      ].map(clientKey),
    ).toEqual(Array(4).fill('2001:db8:1:2::/64'));
    expect([
      clientKey('2001:db8:1:3::1'),
      clientKey('::1'),
      clientKey('fe80::1'),
      clientKey('2001:db8::'),
    ]).toEqual(['2001:db8:1:3::/64', '0:0:0:0::/64', 'fe80:0:0:0::/64', '2001:db8:0:0::/64']);
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('keeps anything else (a socket without an address) as one client of its own', () => {
    expect([clientKey(''), clientKey(undefined)]).toEqual(['', '']);
  });
});
