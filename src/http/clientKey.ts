// Who counts as one client for the per-client bounds (the token throttle, the live-stream cap):
// an IPv4 address, or an IPv6 /64, the block one subscriber usually holds whole.
import { isIPv4, isIPv6 } from 'node:net';

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The first four groups of an IPv6 address, `::` expanded, without leading zeros. */
const first64 = (address: string): string[] => {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  // A dotted IPv4 tail fills two groups.
  const right = groups(tail ?? '').flatMap((group) => (isIPv4(group) ? ['0', '0'] : [group]));
  const all =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
};

/** The client an address (`req.ip`) counts as: IPv4 as is (IPv4-mapped IPv6 too), IPv6 by its /64. */
export const clientKey = (ip: string | undefined): string => {
  if (ip === undefined) return '';
  const address = ip.replace(/%.*$/, ''); // a zone index names an interface, not a client
  const mapped = MAPPED_IPV4.exec(address);
  if (mapped !== null && isIPv4(mapped[1] ?? '')) return mapped[1] ?? '';
  if (!isIPv6(address)) return address;
  return `${first64(address).join(':')}::/64`;
};
