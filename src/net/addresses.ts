// Which addresses an outbound request may connect to. Classification is ipaddr.js's (its range tables are kept with
// the IANA registries), not hand-written ranges: only plain public unicast passes. Loopback, private, link-local
// (which holds the cloud metadata address 169.254.169.254), unique-local, CGNAT, multicast, unspecified,
// broadcast, reserved and the IPv6 ranges that embed an IPv4 address (NAT64, 6to4, Teredo) are refused. An
// IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** The range an address is refused for ('loopback', 'private', 'linkLocal', …), or null when it is public unicast. */
export function refusedRange(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  if (!ipaddr.isValid(bare)) return 'invalid'
  // process() turns an IPv4-mapped IPv6 address into its IPv4 address.
  const range = ipaddr.process(bare).range()
  return range === 'unicast' ? null : range
}

/** True for an IP literal (IPv4 dotted, IPv6 with or without brackets), as opposed to a DNS name. */
export function isIpLiteral(host: string): boolean {
  return isIP(bareAddress(host)) !== 0
}

/** The address without IPv6 brackets, as a socket connects to it. */
export function bareAddress(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
}
