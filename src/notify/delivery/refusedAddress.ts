// Addresses a notification may never be sent to: a subscriber's URL must not reach the service's
// own host, its private network or a cloud metadata endpoint (server-side request forgery).
import { BlockList, isIP } from 'node:net';

const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", incl. the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. the metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
] as const)
  refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local, incl. the metadata fd00:ec2::254
  ['fe80::', 10],
  ['ff00::', 8], // multicast
] as const)
  refused.addSubnet(network, prefix, 'ipv6');

/** True for an address delivery must not connect to (IPv4-mapped IPv6 is checked as its IPv4). */
export const isRefusedAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: nothing to connect to safely
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
};
