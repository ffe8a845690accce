// One form for every host name the service compares: the Host a request names, the custom domain
// a page claims, the service's own public host. Browsers send internationalised names in their
// ASCII (punycode) form, while an operator may configure either form, so both sides meet in ASCII.
import { domainToASCII } from 'node:url';

/**
 * The comparable form of a host: ASCII (punycode), lower case, without port and without the
 * trailing dot of a fully qualified name. Null when the text cannot name a host.
 */
export const normalizeHost = (raw: string): string | null => {
  const host = raw.trim();
  if (host.startsWith('[')) return null; // an IPv6 literal names no domain
  const withoutPort = host.replace(/:\d*$/, '');
  const withoutDot = withoutPort.endsWith('.') ? withoutPort.slice(0, -1) : withoutPort;
  if (withoutDot === '' || withoutDot.includes(':')) return null;
  const ascii = domainToASCII(withoutDot);
  return ascii === '' ? null : ascii;
};

/** The normalised host of an absolute URL (PUBLIC_BASE_URL). */
export const hostOfUrl = (url: string): string | null => normalizeHost(new URL(url).host);
