import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { isReachable, type AllowedNetworks } from './address-rules.js';

/** Every address a name resolves to; tests pass their own to stand for DNS (rebinding, nip.io-style names). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A connection refused because of where it would go. Internal: `outbound-http.ts` words it for the tenant. */
export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
  constructor() {
    super('the address is not public');
  }
}

/**
 * The `lookup` of every socket the connectors open: it resolves the name itself and refuses the
 * connection when any address is not reachable, so the address checked is the address connected to
 * (a name that answers a public address to one look-up and 127.0.0.1 to the next, DNS rebinding,
 * gains nothing). Refusing the whole name, rather than picking its public addresses, keeps the rule
 * simple to state: every address a source's name has must be public.
 */
export function guardedLookup(resolve: Resolve, allowed: AllowedNetworks): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const pick = (addresses: LookupAddress[]): LookupAddress[] => {
      if (addresses.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
      if (addresses.some(({ address }) => !isReachable(address, allowed))) throw new AddressRefusedError();
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = family ? addresses.filter((address) => address.family === family) : addresses;
      if (usable.length === 0) throw Object.assign(new Error(`no IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' });
      return usable;
    };
    resolve(hostname)
      .then(pick)
      .then(
        (usable) => (options.all ? callback(null, usable) : callback(null, usable[0]!.address, usable[0]!.family)),
        (error: NodeJS.ErrnoException) => callback(error, ''),
      );
  };
}

/**
 * undici's connector with the guarded look-up. An IP literal never reaches a look-up (Node connects
 * to it as it is), so it is checked here, at the same moment.
 */
export function guardedConnector(resolve: Resolve, allowed: AllowedNetworks, connectTimeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup(resolve, allowed), timeout: connectTimeoutMs });
  return (options, callback) => {
    if (isIP(options.hostname) !== 0 && !isReachable(options.hostname, allowed)) {
      callback(new AddressRefusedError(), null);
      return;
    }
    connect(options, callback);
  };
}
