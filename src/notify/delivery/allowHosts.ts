// NOTIFY_ALLOW_HOSTS: host names (or literal addresses) delivery may reach even when they resolve to
// a refused address, e.g. a receiver on the private network or a test's local server.
export type AllowHosts = ReadonlySet<string>;

const normalize = (host: string): string =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');

/** The allow list from the setting's hosts: compared case-insensitively, `[…]` around IPv6 optional. */
export const allowList = (hosts: readonly string[]): AllowHosts =>
  new Set(hosts.map(normalize).filter((host) => host !== ''));

export const isAllowedHost = (allow: AllowHosts, hostname: string): boolean => allow.has(normalize(hostname));
