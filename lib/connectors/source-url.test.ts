import test from 'ava';
import { sourceUrlProblem } from './source-url.js';

/*
 * Where a tenant may point a connector. In production only public https addresses: never the
 * service's own network or the cloud's metadata endpoint. Elsewhere anything, local fakes included.
 */

const refusedInProduction: Array<[string, string]> = [
  ['http://shop.example.com', 'must use https'],
  ['http://93.184.216.34', 'must use https'],
  ['https://127.0.0.1', 'must be a public address'],
  ['https://127.0.0.1:8443/admin', 'must be a public address'],
  ['https://127.1', 'must be a public address'],
  ['https://2130706433', 'must be a public address'],
  ['https://0.0.0.0', 'must be a public address'],
  ['https://10.0.0.5', 'must be a public address'],
  ['https://10.255.255.255', 'must be a public address'],
  ['https://100.64.0.1', 'must be a public address'],
  ['https://172.16.0.1', 'must be a public address'],
  ['https://172.31.255.254', 'must be a public address'],
  ['https://192.168.1.20', 'must be a public address'],
  ['https://169.254.169.254/latest/meta-data/', 'must be a public address'],
  ['https://[::1]', 'must be a public address'],
  ['https://[::1]:8443/', 'must be a public address'],
  ['https://[fd00::1]', 'must be a public address'],
  ['https://[fc00::1]', 'must be a public address'],
  ['https://[fe80::1]', 'must be a public address'],
  ['https://[::ffff:127.0.0.1]', 'must be a public address'],
  ['https://[::ffff:169.254.169.254]', 'must be a public address'],
  // The review's gaps (F1): special ranges and IPv6 forms that carry an internal IPv4 address.
  ['https://198.18.0.1', 'must be a public address'],
  ['https://192.0.0.8', 'must be a public address'],
  ['https://224.0.0.1', 'must be a public address'],
  ['https://240.0.0.1', 'must be a public address'],
  ['https://255.255.255.255', 'must be a public address'],
  ['https://[64:ff9b::a9fe:a9fe]', 'must be a public address'],
  ['https://[2002:7f00:1::]', 'must be a public address'],
  ['https://[::127.0.0.1]', 'must be a public address'],
  ['https://localhost..', 'must be a public host name'],
  ['https://localhost', 'must be a public host name'],
  ['https://LOCALHOST:3000', 'must be a public host name'],
  ['https://shop.localhost', 'must be a public host name'],
  ['https://shop', 'must be a public host name'],
  ['https://intranet/wp', 'must be a public host name'],
  ['https://metadata.google.internal', 'must be a public host name'],
  ['https://shop.corp.internal', 'must be a public host name'],
  ['https://printer.local', 'must be a public host name'],
  ['https://nas.lan', 'must be a public host name'],
  ['https://router.home.arpa', 'must be a public host name'],
];

for (const [address, problem] of refusedInProduction) {
  test(`in production ${address} is refused: ${problem}`, (t) => {
    t.is(sourceUrlProblem(address, true), problem);
  });
}

const allowedInProduction = [
  'https://shop.example.com',
  'https://shop.example.com/',
  'https://northwind.myshop.example:8443/admin',
  'HTTPS://Shop.Example.com',
  'https://93.184.216.34',
  'https://172.32.0.1',
  'https://192.169.0.1',
  'https://[2606:4700:4700::1111]',
  'https://local.example.com',
  'https://internal.example.com',
];

for (const address of allowedInProduction) {
  test(`in production ${address} is allowed`, (t) => {
    t.is(sourceUrlProblem(address, true), undefined);
  });
}

test('outside production every address is allowed, local fakes included', (t) => {
  for (const [address] of refusedInProduction) t.is(sourceUrlProblem(address, false), undefined, address);
  t.is(sourceUrlProblem('http://127.0.0.1:51234', false), undefined);
});

test('in production a trailing dot does not make localhost or an .internal name public', (t) => {
  // `localhost.` and `metadata.google.internal.` are the same names, fully qualified, and resolve alike.
  t.is(sourceUrlProblem('https://localhost./', true), 'must be a public host name');
  t.is(sourceUrlProblem('https://metadata.google.internal./', true), 'must be a public host name');
});

test('in production the unspecified IPv6 address is refused, as 0.0.0.0 is', (t) => {
  // Connecting to [::] reaches the local host, like 0.0.0.0.
  t.is(sourceUrlProblem('https://[::]/', true), 'must be a public address');
});
