// src/net/addresses.ts: which addresses an outbound request may connect to, IPv6 forms that carry an IPv4 address
// included (issue 22, finding 5). Pure: no sockets.
import t from 'tap'
import { refusedRange } from '../../../src/net/index.ts'

t.test('IPv4-mapped IPv6 is judged as the IPv4 address it carries', async (t) => {
  for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:7f00:1]', '0:0:0:0:0:ffff:127.0.0.1', '::FFFF:7F00:1']) {
    t.equal(refusedRange(address), 'loopback', address)
  }
  t.equal(refusedRange('::ffff:10.1.2.3'), 'private')
  t.equal(refusedRange('::ffff:169.254.169.254'), 'linkLocal')
  t.equal(refusedRange('::ffff:93.184.216.34'), null, 'a public IPv4 address written mapped is public')
})

t.test('IPv4-compatible ::a.b.c.d is refused, as the carried range when that is non-public, whatever its spelling', async (t) => {
  for (const address of ['::127.0.0.1', '[::127.0.0.1]', '::7f00:1', '0:0:0:0:0:0:7f00:1', '::7f00:0001', '::127.1.2.3']) {
    t.equal(refusedRange(address), 'loopback', address)
  }
  t.equal(refusedRange('::10.0.0.1'), 'private')
  t.equal(refusedRange('::a9fe:a9fe'), 'linkLocal', 'the metadata address')
  t.equal(refusedRange('::93.184.216.34'), 'ipv4Compatible', 'deprecated: refused even with a public address')
  t.equal(refusedRange('::5db8:d822'), 'ipv4Compatible')
})

t.test('IPv4-translated ::ffff:0:a.b.c.d is refused', async (t) => {
  t.equal(refusedRange('::ffff:0:127.0.0.1'), 'loopback')
  t.equal(refusedRange('::ffff:0:7f00:1'), 'loopback')
  t.equal(refusedRange('::ffff:0:93.184.216.34'), 'rfc6145')
})

t.test('NAT64 is refused, as the carried range when that is non-public', async (t) => {
  for (const address of ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b:1::7f00:1', '64:ff9b:1:ffff::127.0.0.1']) {
    t.equal(refusedRange(address), 'loopback', address)
  }
  t.equal(refusedRange('64:ff9b::10.0.0.1'), 'private')
  t.equal(refusedRange('64:ff9b::169.254.169.254'), 'linkLocal')
  t.equal(refusedRange('64:ff9b::93.184.216.34'), 'rfc6052')
  t.equal(refusedRange('64:ff9b:1:abcd::5db8:d822'), 'rfc6052')
})

t.test('6to4 is refused, as the carried range when that is non-public', async (t) => {
  t.equal(refusedRange('2002:7f00:1::'), 'loopback')
  t.equal(refusedRange('2002:7f00:1:0:0:0:0:1'), 'loopback')
  t.equal(refusedRange('2002:a9fe:a9fe::1'), 'linkLocal')
  t.equal(refusedRange('2002:c0a8:101::1'), 'private')
  t.equal(refusedRange('2002:5db8:d822::1'), '6to4')
})

t.test('Teredo is refused, as the server or the (inverted) client address when either is non-public', async (t) => {
  t.equal(refusedRange('2001:0:7f00:1::'), 'loopback', 'server 127.0.0.1')
  t.equal(refusedRange('2001:0:5db8:d822::80ff:fffe'), 'loopback', 'client 127.0.0.1, stored inverted')
  t.equal(refusedRange('2001::a'), 'unspecified', 'server 0.0.0.0')
  t.equal(refusedRange('2001:0:5db8:d822::a2b8:27dd'), 'teredo', 'both public')
})

t.test('plain IPv6 and IPv4 ranges', async (t) => {
  t.equal(refusedRange('::1'), 'loopback')
  t.equal(refusedRange('::'), 'unspecified')
  t.equal(refusedRange('fe80::1'), 'linkLocal')
  t.equal(refusedRange('fe80::1%eth0'), 'linkLocal', 'a zone from DNS does not change the range')
  t.equal(refusedRange('fd00:ec2::254'), 'uniqueLocal')
  t.equal(refusedRange('2001:db8::1'), 'reserved')
  t.equal(refusedRange('2606:2800:220:1:248:1893:25c8:1946'), null, 'public IPv6')
  t.equal(refusedRange('127.0.0.1'), 'loopback')
  t.equal(refusedRange('100.64.0.1'), 'carrierGradeNat')
  t.equal(refusedRange('93.184.216.34'), null)
  t.equal(refusedRange('127.1'), 'invalid', 'only dotted quads: the URL parser and DNS give nothing else')
  t.equal(refusedRange('example.com'), 'invalid')
})
