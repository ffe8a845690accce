import { describe, expect, it } from 'vitest';
import { isAllowedHost, parseAllowHosts } from '../../../src/notify/delivery/allowHosts.ts';
import { isRefusedAddress } from '../../../src/notify/delivery/refusedAddress.ts';
import { retryAfterBodyMs, retryAfterHeaderMs } from '../../../src/notify/delivery/retryAfter.ts';

describe('refused destination addresses', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '169.254.1.1',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ])('allows %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

describe('NOTIFY_ALLOW_HOSTS', () => {
  it('is a comma list of host names, compared case-insensitively, brackets optional', () => {
    const allow = parseAllowHosts(' Hooks.Internal , [::1],,127.0.0.1 ');
    expect([...allow]).toEqual(['hooks.internal', '::1', '127.0.0.1']);
    expect(isAllowedHost(allow, 'HOOKS.internal')).toBe(true);
    expect(isAllowedHost(allow, '[::1]')).toBe(true);
    expect(isAllowedHost(allow, 'other.internal')).toBe(false);
    expect([...parseAllowHosts(undefined)]).toEqual([]);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-29T10:00:00Z');
  it('reads seconds and HTTP-dates, never a negative wait', () => {
    expect(retryAfterHeaderMs('30', now)).toBe(30_000);
    expect(retryAfterHeaderMs(' 0 ', now)).toBe(0);
    expect(retryAfterHeaderMs('Sun, 29 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterHeaderMs('Sun, 29 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterHeaderMs('soon', now)).toBeNull();
    expect(retryAfterHeaderMs('-5', now)).toBeNull();
    expect(retryAfterHeaderMs(undefined, now)).toBeNull();
  });

  it("reads Discord's retry_after seconds from a JSON body", () => {
    expect(retryAfterBodyMs('{"retry_after":0.25}')).toBe(250);
    expect(retryAfterBodyMs('{"retry_after":"1"}')).toBeNull();
    expect(retryAfterBodyMs('{"message":"x"}')).toBeNull();
    expect(retryAfterBodyMs('<html>')).toBeNull();
    expect(retryAfterBodyMs('null')).toBeNull();
  });
});
