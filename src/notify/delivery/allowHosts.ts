// NOTIFY_ALLOW_HOSTS: host names (or literal addresses) delivery may reach even when they resolve to
// a refused address, e.g. a receiver on the private network or a test's local server.
export type AllowHosts = ReadonlySet<string>;

/** A comma list of host names, compared case-insensitively; `[…]` around IPv6 is optional. */
export const parseAllowHosts = (text: string | undefined): AllowHosts =>
  new Set(
    (text ?? '')
      .split(',')
      .map((host) =>
        host
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ''),
      )
      .filter((host) => host !== ''),
  );

export const isAllowedHost = (allow: AllowHosts, hostname: string): boolean =>
  allow.has(hostname.toLowerCase().replace(/^\[|\]$/g, ''));
