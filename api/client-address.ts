import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a client address is counted under by per-address budgets. An IPv6 host is given a whole
 * /64 (one customer's network), so its first four groups are the key: counting every /128 would
 * give one customer endless budgets. An IPv4 address, also one mapped into IPv6, is its own key.
 */
export function clientAddressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, in lower-case hexadecimal without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  // A dotted IPv4 tail stands for the last two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const before = head ? head.split(':') : [];
  const after = rest ? rest.split(':') : [];
  const groups =
    rest === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return groups.map((group) => parseInt(group, 16).toString(16));
}
