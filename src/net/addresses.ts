// Which addresses an outbound request may connect to. Classification is ipaddr.js's (its range tables are kept with
// the IANA registries), not hand-written ranges: only plain public unicast passes. Loopback, private, link-local
// (which holds the cloud metadata address 169.254.169.254), unique-local, CGNAT, multicast, unspecified,
// broadcast and reserved are refused.
//
// IPv6 addresses that carry an IPv4 address:
// - IPv4-mapped (::ffff:a.b.c.d) is how a dual-stack socket writes an IPv4 peer: judged as the IPv4 address it carries.
// - IPv4-compatible (::a.b.c.d, deprecated by RFC 4291), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96,
//   64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32) are refused whatever they carry: a gateway on the path
//   may deliver them to the embedded IPv4 address, which this server cannot see. When that embedded address is itself
//   non-public, its range is the reason given (so [::127.0.0.1] is refused as loopback).
// ipaddr.js reads any dotted tail after "::" as IPv4-mapped (::127.0.0.1 → ::ffff:127.0.0.1), but a socket connects
// to the bytes written (::7f00:1, IPv4-compatible): so an IPv6 address is first written as the URL parser writes it,
// in hex, and only then classified.
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** The range an address is refused for ('loopback', 'private', 'linkLocal', …), or null when it is public unicast. */
export function refusedRange(address: string): string | null {
  const bare = bareAddress(address)
  switch (isIP(withoutZone(bare))) {
    case 4: return ipv4Refusal(ipaddr.IPv4.parse(bare))
    case 6: return ipv6Refusal(ipaddr.IPv6.parse(canonicalIPv6(withoutZone(bare))))
    default: return 'invalid'
  }
}

/** True for an IP literal (IPv4 dotted, IPv6 with or without brackets), as opposed to a DNS name. */
export function isIpLiteral(host: string): boolean {
  return isIP(bareAddress(host)) !== 0
}

/** The address without IPv6 brackets, as a socket connects to it. */
export function bareAddress(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
}

function ipv4Refusal(address: ipaddr.IPv4): string | null {
  const range = address.range()
  return range === 'unicast' ? null : range
}

/** The ranges refused whatever IPv4 address they carry, each with where that address sits in the 16 bytes. */
const TRANSLATION_RANGES: Record<string, (bytes: number[]) => number[][]> = {
  ipv4Compatible: (bytes) => [bytes.slice(12)],
  rfc6145: (bytes) => [bytes.slice(12)],
  // RFC 6052 with the /96 prefix (the well-known 64:ff9b::/96, and the usual use of the local 64:ff9b:1::/48).
  rfc6052: (bytes) => [bytes.slice(12)],
  '6to4': (bytes) => [bytes.slice(2, 6)],
  // Teredo: the server's address in bytes 4-7, the client's in the last 4 bytes, inverted.
  teredo: (bytes) => [bytes.slice(4, 8), bytes.slice(12).map((byte) => byte ^ 0xff)],
}

function ipv6Refusal(address: ipaddr.IPv6): string | null {
  if (address.isIPv4MappedAddress()) return ipv4Refusal(address.toIPv4Address())
  const bytes = address.toByteArray()
  const range = isIPv4Compatible(bytes) ? 'ipv4Compatible' : address.range()
  const embedded = TRANSLATION_RANGES[range]
  if (embedded) {
    for (const carried of embedded(bytes)) {
      const carriedRange = ipv4Refusal(new ipaddr.IPv4(carried))
      if (carriedRange !== null) return carriedRange
    }
    return range
  }
  return range === 'unicast' ? null : range
}

/** ::/96 apart from :: and ::1 (which ipaddr.js already names unspecified and loopback). */
function isIPv4Compatible(bytes: number[]): boolean {
  const carried = bytes.slice(12).reduce((value, byte) => value * 256 + byte, 0)
  return bytes.slice(0, 12).every((byte) => byte === 0) && carried > 1
}

/** The address as the WHATWG URL parser writes it: lowercase hex, a dotted tail turned into two hex groups. */
function canonicalIPv6(address: string): string {
  return bareAddress(new URL(`http://[${address}]/`).hostname)
}

/** A link-local address may come from DNS with its zone (fe80::1%eth0); the zone does not change its range. */
function withoutZone(address: string): string {
  const zone = address.indexOf('%')
  return zone === -1 ? address : address.slice(0, zone)
}
