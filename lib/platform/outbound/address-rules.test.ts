import test from 'ava';
import { addressProblem, everyNetwork, isReachable } from './address-rules.js';

/*
 * Which addresses a tenant's source may be at: public unicast only. The forms the 2026-11 review
 * tried against the old filter (F1) are all here; those marked "gap" passed it.
 */

const refused: Array<[string, RegExp]> = [
  ['127.0.0.1', /^loopback$/],
  ['127.255.255.254', /^loopback$/],
  ['0.0.0.0', /^unspecified$/],
  ['10.0.0.5', /^private$/],
  ['172.16.0.1', /^private$/],
  ['192.168.1.20', /^private$/],
  ['169.254.169.254', /^linkLocal$/],
  ['100.64.0.1', /^carrierGradeNat$/],
  ['198.18.0.1', /^reserved$/], // gap: benchmarking
  ['198.19.255.255', /^reserved$/], // gap
  ['192.0.0.8', /^reserved$/], // gap: IETF protocol assignments
  ['192.0.2.1', /^reserved$/], // documentation
  ['198.51.100.7', /^reserved$/], // documentation
  ['203.0.113.9', /^reserved$/], // documentation
  ['224.0.0.1', /^multicast$/], // gap
  ['239.255.255.250', /^multicast$/], // gap
  ['240.0.0.1', /^reserved$/], // gap
  ['255.255.255.255', /^broadcast$/], // gap
  ['::1', /^loopback$/],
  ['::', /^unspecified$/],
  ['::ffff:127.0.0.1', /^loopback \(inside ipv4Mapped\)$/],
  ['::ffff:169.254.169.254', /^linkLocal/],
  ['::ffff:0:a00:5', /^private \(inside rfc6145\)$/],
  ['::7f00:1', /^reserved \(IPv4-compatible\)$/], // gap: ::/96
  ['::5db8:d822', /^reserved \(IPv4-compatible\)$/], // deprecated even with a public IPv4 inside
  ['64:ff9b::a9fe:a9fe', /^linkLocal \(inside rfc6052\)$/], // gap: NAT64 of 169.254.169.254
  ['64:ff9b::7f00:1', /^loopback/], // gap: NAT64 of 127.0.0.1
  ['64:ff9b:1::a00:5', /^rfc6052$/], // local-use NAT64
  ['2002:7f00:1::', /^loopback \(inside 6to4\)$/], // gap: 6to4 of 127.0.0.1
  ['2002:a00:5::1', /^private \(inside 6to4\)$/], // gap: 6to4 of 10.0.0.5
  ['2001::1', /^teredo$/],
  ['2001:db8::1', /^reserved$/], // documentation
  ['2001:2::1', /^benchmarking$/],
  ['fc00::1', /^uniqueLocal$/],
  ['fd12:3456::1', /^uniqueLocal$/],
  ['fe80::1', /^linkLocal$/],
  ['fec0::1', /^deprecatedSiteLocal$/],
  ['ff02::1', /^multicast$/],
  ['100::1', /^discard$/],
  ['1::', /^reserved$/], // outside 2000::/3
  ['localhost', /^not an IP address$/],
];

for (const [address, problem] of refused) {
  test(`${address} is refused`, (t) => {
    t.regex(addressProblem(address) ?? 'allowed', problem);
    t.false(isReachable(address, []));
  });
}

const allowed = [
  '93.184.216.34',
  '1.1.1.1',
  '172.32.0.1',
  '192.169.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82a::200e',
  '::ffff:93.184.216.34',
  '64:ff9b::5db8:d822', // NAT64 of a public address: how an IPv6-only network with DNS64 reaches every IPv4 site
  '2002:5db8:d822::1', // 6to4 of a public address
];

for (const address of allowed) {
  test(`${address} is allowed`, (t) => {
    t.is(addressProblem(address), undefined);
    t.true(isReachable(address, []));
  });
}

test('the development allowance reaches every network; a narrower one only its own', (t) => {
  for (const address of ['127.0.0.1', '10.0.0.5', '::1', 'fd00::1', '::ffff:127.0.0.1'])
    t.true(isReachable(address, everyNetwork), address);
  t.true(isReachable('127.0.0.1', ['127.0.0.1/32']));
  t.true(isReachable('::ffff:127.0.0.1', ['127.0.0.1/32']), 'an IPv4-mapped address is its IPv4 address');
  t.false(isReachable('127.0.0.2', ['127.0.0.1/32']));
  t.false(isReachable('::1', ['127.0.0.0/8']));
});
