import test from 'ava';
import { clientAddressKey } from './client-address.js';

test('an IPv6 client is counted by its /64, however its address is written', (t) => {
  const key = clientAddressKey('2001:db8:0:1::5');
  t.is(key, '2001:db8:0:1::/64');
  t.is(clientAddressKey('2001:0DB8:0000:0001:ffff:1:2:3'), key);
  t.is(clientAddressKey('2001:db8:0:1:a::1%eth0'), key);
  t.not(clientAddressKey('2001:db8:0:2::5'), key);
  t.is(clientAddressKey('::1'), '0:0:0:0::/64');
  t.is(clientAddressKey('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
});

test('an IPv4 client is counted by its address, also when mapped into IPv6', (t) => {
  t.is(clientAddressKey('198.51.100.7'), '198.51.100.7');
  t.is(clientAddressKey('::ffff:198.51.100.7'), '198.51.100.7');
  t.is(clientAddressKey(''), '');
});
