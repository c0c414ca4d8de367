import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';

/**
 * The key a client address is counted under by per-address budgets. An IPv6 host is given a whole
 * /64 (one customer's network), so its first four groups are the key: counting every /128 would
 * give one customer endless budgets. An IPv4 address, also one mapped into IPv6, is its own key.
 */
export function clientAddressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address becomes its IPv4 address
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/** The key of the request's client address (see `clientAddressKey`). */
export const clientAddressOf = (ctx: Pick<Context, 'ip'>) => clientAddressKey(ctx.ip);
