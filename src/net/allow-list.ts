// OUTBOUND_ALLOW: `host:port` pairs an outbound request may reach even though the address checks would refuse them
// (tests' servers on 127.0.0.1, on-premise services). Off (empty) by default. An entry matches a connection when its
// port is the connection's and its host is either the host the URL names or the address it resolved to.
import { bareAddress } from './addresses.ts'

export interface AllowEntry { host: string; port: number }

/** Parses `127.0.0.1:8080,[::1]:9000,intranet.local:443`; throws with the bad entry named. */
export function parseAllowList(raw: string | undefined): AllowEntry[] {
  if (raw === undefined || raw.trim() === '') return []
  return raw.split(',').map((text) => text.trim()).filter(Boolean).map((text) => {
    const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/]+):(\d{1,5})$/.exec(text)
    const port = match ? Number(match[2]) : NaN
    if (!match || port < 1 || port > 65535) throw new Error(`"${text}" is not host:port`)
    return { host: bareAddress(match[1]!.toLowerCase()), port }
  })
}

export class AllowList {
  constructor(private readonly entries: readonly AllowEntry[]) {}

  /** True when `port` on `hostname` (as written in the URL) or on `address` (as resolved) is listed. */
  allows(hostname: string, address: string, port: number): boolean {
    const host = bareAddress(hostname.toLowerCase())
    const addr = bareAddress(address.toLowerCase())
    return this.entries.some((entry) => entry.port === port && (entry.host === host || entry.host === addr))
  }

  get size(): number {
    return this.entries.length
  }
}
