import ipaddr from 'ipaddr.js';

/*
 * Which IP addresses a request made on a tenant's behalf may reach: public unicast only. The special
 * ranges are named by ipaddr.js (`range()`), so this file says only which names are public and how
 * IPv6 forms that carry an IPv4 address inside are read.
 */

/** Networks reachable although not public (CIDRs), for local fakes and development; none in production. */
export type AllowedNetworks = ReadonlyArray<string>;

/** Every network: the development allowance (`OUTBOUND_ALLOW_PRIVATE_NETWORKS=true`). */
export const everyNetwork: AllowedNetworks = ['0.0.0.0/0', '::/0'];

/** The IPv6 forms that carry an IPv4 address, where that address decides. */
const ipv4Carriers = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4']);

/**
 * Why `address` (an IP literal) must not be reached, in a word or two ("loopback", "private", …), or
 * undefined when it is a public unicast address. Anything that does not parse as an IP is refused.
 */
export function addressProblem(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return ipv4Problem(parsed as ipaddr.IPv4);
  const ipv6 = parsed as ipaddr.IPv6;
  const range = ipv6.range();
  const embedded = embeddedIPv4(ipv6, range);
  if (embedded) {
    const problem = ipv4Problem(embedded);
    return problem ? `${problem} (inside ${range})` : undefined;
  }
  if (range !== 'unicast') return range;
  // ::a.b.c.d, IPv4-compatible: deprecated (RFC 4291) and never a public address of its own.
  if (ipv6.match(ipaddr.parseCIDR('::/96'))) return 'reserved (IPv4-compatible)';
  // Only 2000::/3 is handed out as global unicast; the rest of the space is reserved.
  if (!ipv6.match(ipaddr.parseCIDR('2000::/3'))) return 'reserved';
  return undefined;
}

/** True when `address` may be reached: public, or inside a network of `allowed`. */
export function isReachable(address: string, allowed: AllowedNetworks): boolean {
  if (addressProblem(address) === undefined) return true;
  if (!ipaddr.isValid(address) || allowed.length === 0) return false;
  const parsed = ipaddr.process(address);
  return allowed.some((cidr) => {
    const network = ipaddr.parseCIDR(cidr);
    return network[0].kind() === parsed.kind() && parsed.match(network);
  });
}

function ipv4Problem(ipv4: ipaddr.IPv4): string | undefined {
  const range = ipv4.range();
  return range === 'unicast' ? undefined : range;
}

/**
 * The IPv4 address an IPv6 one stands for: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated, NAT64
 * (64:ff9b::/96, as an IPv6-only network with DNS64 reaches every IPv4 site) and 6to4
 * (2002:AABB:CCDD::). Teredo and the local-use NAT64 prefix are refused by their range names instead.
 */
function embeddedIPv4(ipv6: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const bytes = ipv6.toByteArray();
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  if (range === 'rfc6052' && !ipv6.match(ipaddr.parseCIDR('64:ff9b::/96'))) return undefined;
  return ipv4Carriers.has(range) ? new ipaddr.IPv4(bytes.slice(12, 16)) : undefined;
}
