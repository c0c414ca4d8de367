import { isIP } from 'node:net';
import { addressProblem } from '#platform/outbound/address-rules.js';

/**
 * Why a shop's or site's address cannot be used, or undefined when it can: the early, friendly check of
 * `POST /connectors/*`. In production a connector reaches the public internet only, over https: not a
 * loopback, private, link-local or otherwise special address (the rules of
 * `lib/platform/outbound/address-rules.ts`), nor a name that only resolves inside a network. (Outside
 * production, local fakes on 127.0.0.1 are the norm.) A public-looking name may still resolve to an
 * internal address, now or later: every connection is checked again where it is made
 * (`lib/platform/outbound/guarded-connector.ts`), which is what actually keeps connectors out.
 */
export function sourceUrlProblem(address: string, production: boolean): string | undefined {
  if (!production) return undefined;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'must be a valid URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  // `localhost.` (and `localhost..`) is `localhost`: final dots change nothing about where a name resolves.
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (isIP(host) !== 0) return addressProblem(host) ? 'must be a public address' : undefined;
  if (host === 'localhost' || /\.(localhost|local|internal|lan|home\.arpa)$/i.test(host) || !host.includes('.')) {
    return 'must be a public host name';
  }
  return undefined;
}
