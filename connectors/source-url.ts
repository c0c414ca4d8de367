import { BlockList, isIP } from 'node:net';

/** Addresses a hosted service must not be pointed at by a tenant: its own network and the cloud's metadata. */
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
internal.addSubnet('::', 127, 'ipv6');
internal.addSubnet('fc00::', 7, 'ipv6');
internal.addSubnet('fe80::', 10, 'ipv6');

/**
 * Why a shop's or site's address cannot be used, or undefined when it can. In production a connector
 * reaches the public internet only, over https: not a loopback, private or link-local address, nor a
 * name that only resolves inside a network. (Outside production, local fakes on 127.0.0.1 are the norm.)
 * Names that resolve to internal addresses are the egress proxy's to stop.
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
  // `localhost.` is `localhost`: a name's final dot changes nothing about where it resolves.
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const family = isIP(host);
  if (family !== 0) return internal.check(host, family === 4 ? 'ipv4' : 'ipv6') ? 'must be a public address' : undefined;
  if (host === 'localhost' || /\.(localhost|local|internal|lan|home\.arpa)$/i.test(host) || !host.includes('.')) {
    return 'must be a public host name';
  }
  return undefined;
}
