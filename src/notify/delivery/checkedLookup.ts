// The agent's DNS lookup: resolve, refuse when any answer is a refused address, and hand the socket
// the addresses just checked. The connection is made to what was checked, so a second resolution
// (DNS rebinding: a public address for a check, 127.0.0.1 for the connect) cannot swap it.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isAllowedHost, type AllowHosts } from './allowHosts.ts';
import { isRefusedAddress } from './refusedAddress.ts';

/** Resolves a host name to all its addresses (dns.lookup; tests pass their own). */
export type Resolve = (hostname: string, family: number) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses);
    });
  });

export class RefusedDestination extends Error {
  override readonly name = 'RefusedDestination';
  readonly code = 'EREFUSEDDESTINATION';
}

/** @throws RefusedDestination (through the callback) when an answer is a refused address. */
export const checkedLookup =
  (allow: AllowHosts, resolve: Resolve): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname, options.family === 4 || options.family === 6 ? options.family : 0)
      .then((addresses) => {
        const first = addresses[0];
        if (first === undefined) throw new RefusedDestination(`${hostname} has no address`);
        if (!isAllowedHost(allow, hostname) && addresses.some((a) => isRefusedAddress(a.address)))
          throw new RefusedDestination('destination resolves to a refused address');
        if (options.all === true) callback(null, addresses);
        else callback(null, first.address, first.family);
      })
      .catch((error: unknown) => {
        callback(error as NodeJS.ErrnoException, '', 0);
      });
  };
