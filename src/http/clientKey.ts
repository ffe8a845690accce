// Who counts as one client for the per-client bounds (the token throttle, the live-stream cap):
// an IPv4 address, or an IPv6 /64, the block one subscriber usually holds whole.
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded, a dotted IPv4 tail as two. */
const groupsOf = (address: string): number[] => {
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [a * 256 + b, c * 256 + d];
        });
  const [head = '', tail] = address.split('::');
  if (tail === undefined) return parse(head);
  const [left, right] = [parse(head), parse(tail)];
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
};

const isMappedIpv4 = (groups: readonly number[]): boolean =>
  groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;

/** The client an address (`req.ip`) counts as: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64. */
export const clientKey = (ip: string | undefined): string => {
  if (ip === undefined) return '';
  const address = ip.replace(/%.*$/, ''); // a zone index names an interface, not a client
  if (!isIPv6(address)) return address;
  const groups = groupsOf(address);
  if (isMappedIpv4(groups)) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
};
