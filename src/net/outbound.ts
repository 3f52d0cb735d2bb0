// The one way this server makes an HTTP request to an address someone typed (external APIs, OpenGraph previews).
// Closed against SSRF by construction:
// - only http(s) URLs without credentials; the URL parser has already turned decimal, octal and hex IPv4 spellings
//   (2130706433, 0x7f000001, 017700000001) into dotted form;
// - the host is resolved once and every address it resolves to must be public unicast (addresses.ts), unless
//   OUTBOUND_ALLOW lists it (allow-list.ts);
// - the connection goes to exactly the address that was checked: undici's connector is given the vetted address in
//   place of the host name (TLS still verifies the certificate against the name), so a second DNS answer can never
//   be used (no DNS rebinding);
// - redirects are not followed by the client but here, at most MAX_REDIRECTS, each target checked like the first,
//   and a redirect to another origin carries none of the caller's headers but Accept and User-Agent (no credentials);
// - the whole exchange has one deadline, and the body stops being read past the size cap.
import dns from 'node:dns'
import { Agent, buildConnector, request as undiciRequest } from 'undici'
import { AllowList } from './allow-list.ts'
import { bareAddress, isIpLiteral, refusedRange } from './addresses.ts'

export const MAX_REDIRECTS = 3
export const DEFAULT_MAX_BYTES = 1024 * 1024
export const DEFAULT_TIMEOUT_MS = 5000
export const MAX_TIMEOUT_MS = 30_000

export type OutboundErrorCode =
  | 'BAD_URL' | 'REFUSED_ADDRESS' | 'DNS' | 'TIMEOUT' | 'TOO_LARGE' | 'TOO_MANY_REDIRECTS' | 'NETWORK'

/** Why an outbound request did not give an answer; the message is fit to show to the author who set it up. */
export class OutboundError extends Error {
  constructor(readonly code: OutboundErrorCode, message: string) {
    super(message)
    this.name = 'OutboundError'
  }
}

export interface ResolvedAddress { address: string; family: number }
/** DNS as the outbound module uses it: every address of a name. Tests stub it. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>
/** undici's connector; tests replace it with one that fails the test if a socket is ever opened. */
export type Connector = buildConnector.connector

export interface OutboundOptions {
  allow?: AllowList
  resolve?: Resolver
  connector?: Connector
}

export interface OutboundRequest {
  url: string
  method?: string
  headers?: Record<string, string>
  body?: string
  /** Default 5 s, at most 30 s; counts the whole exchange, redirects and body included. */
  timeoutMs?: number
  /** Default 1 MB. */
  maxBytes?: number
}

export interface OutboundResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
  /** The URL that answered, after redirects. */
  url: string
  redirects: number
  timeMs: number
}

export interface Outbound {
  send(request: OutboundRequest): Promise<OutboundResponse>
}

/** Request headers a definition may not set: the connection's own framing and routing. */
export const FORBIDDEN_REQUEST_HEADERS = new Set([
  'host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-authorization', 'proxy-connection',
])

/** Headers still sent after a redirect to another origin: never credentials meant for the first one. */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'user-agent'])

const systemResolver: Resolver = async (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true })

interface Target { url: URL; address: string; family: number }

export function createOutbound(opts: OutboundOptions = {}): Outbound {
  const allow = opts.allow ?? new AllowList([])
  const resolve = opts.resolve ?? systemResolver
  const baseConnector = opts.connector ?? buildConnector({})

  /** The URL parsed and its host resolved and checked; throws OutboundError naming why not. */
  async function vet(raw: string): Promise<Target> {
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      throw new OutboundError('BAD_URL', `"${raw.slice(0, 200)}" is not a URL.`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('BAD_URL', `Only http and https URLs can be requested, not ${url.protocol}.`)
    if (url.username || url.password) throw new OutboundError('BAD_URL', 'The URL may not carry a user name or password; send credentials in a header.')
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
    const host = url.hostname
    let addresses: ResolvedAddress[]
    if (isIpLiteral(host)) {
      const address = bareAddress(host)
      addresses = [{ address, family: address.includes(':') ? 6 : 4 }]
    } else {
      try {
        addresses = await resolve(host)
      } catch {
        throw new OutboundError('DNS', `The host ${host} could not be found.`)
      }
      if (addresses.length === 0) throw new OutboundError('DNS', `The host ${host} could not be found.`)
    }
    // Every address must pass, so which one the connection would use never matters.
    for (const { address } of addresses) {
      if (allow.allows(host, address, port)) continue
      const range = refusedRange(address)
      if (range !== null) {
        const via = isIpLiteral(host) ? '' : ` (${host} resolves to ${address})`
        throw new OutboundError('REFUSED_ADDRESS', `Requests to ${describeRange(range)} addresses are not allowed${via}.`)
      }
    }
    return { url, ...addresses[0]! }
  }

  /** A dispatcher whose every connection goes to the vetted address, whatever the host name resolves to by now. */
  function pinnedAgent(target: Target): Agent {
    const connect: Connector = (options, callback) => baseConnector({ ...options, hostname: target.address }, callback)
    return new Agent({ connect, pipelining: 0 })
  }

  async function send(req: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now()
    const timeoutMs = Math.min(req.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS)
    const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES
    const signal = AbortSignal.timeout(timeoutMs)
    let headers = Object.fromEntries(Object.entries(req.headers ?? {}).filter(([name]) => !FORBIDDEN_REQUEST_HEADERS.has(name.toLowerCase())))
    const origin = new URL(req.url, 'http://invalid').origin
    let method = (req.method ?? 'GET').toUpperCase()
    let body = req.body
    let next = req.url
    for (let redirects = 0; ; redirects++) {
      const target = await withDeadline(vet(next), signal, timeoutMs)
      const agent = pinnedAgent(target)
      try {
        const response = await undiciRequest(target.url, { method: method as 'GET', headers, body, dispatcher: agent, signal, maxRedirections: 0 })
          .catch((error: unknown) => { throw failure(error, signal, timeoutMs) })
        const location = response.headers.location
        if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
          await response.body.dump().catch(() => undefined)
          if (redirects >= MAX_REDIRECTS) throw new OutboundError('TOO_MANY_REDIRECTS', `More than ${MAX_REDIRECTS} redirects.`)
          next = new URL(location, target.url).toString()
          if (new URL(next).origin !== origin) {
            headers = Object.fromEntries(Object.entries(headers).filter(([name]) => CROSS_ORIGIN_HEADERS.has(name.toLowerCase())))
          }
          // As browsers do: 303 (and 301/302 after a POST) go on as a GET without the body.
          if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
            method = 'GET'
            body = undefined
          }
          continue
        }
        const bytes = await readCapped(response, maxBytes, signal, timeoutMs)
        return {
          status: response.statusCode, headers: flatHeaders(response.headers), body: bytes, url: target.url.toString(), redirects,
          timeMs: Math.round(performance.now() - started),
        }
      } finally {
        agent.close().catch(() => undefined)
      }
    }
  }

  return { send }
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback', private: 'private network', linkLocal: 'link-local (including cloud metadata)', uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT', multicast: 'multicast', unspecified: 'unspecified', broadcast: 'broadcast', reserved: 'reserved',
  ipv4Compatible: 'IPv4-compatible IPv6', rfc6145: 'IPv4-translated IPv6', rfc6052: 'NAT64', '6to4': '6to4', teredo: 'Teredo',
}

function describeRange(range: string): string {
  return RANGE_NAMES[range] ?? `non-public (${range})`
}

async function withDeadline<T>(work: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  if (signal.aborted) throw timedOut(timeoutMs)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timedOut(timeoutMs))
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

function timedOut(timeoutMs: number): OutboundError {
  return new OutboundError('TIMEOUT', `No complete answer within ${timeoutMs} ms.`)
}

function failure(error: unknown, signal: AbortSignal, timeoutMs: number): OutboundError {
  if (error instanceof OutboundError) return error
  if (signal.aborted) return timedOut(timeoutMs)
  const code = (error as { code?: unknown }).code
  return new OutboundError('NETWORK', `The request failed${typeof code === 'string' ? ` (${code})` : ''}.`)
}

async function readCapped(response: Awaited<ReturnType<typeof undiciRequest>>, maxBytes: number, signal: AbortSignal, timeoutMs: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length'])
  const tooLarge = () => new OutboundError('TOO_LARGE', `The answer is larger than ${Math.round(maxBytes / 1024)} KB.`)
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy()
    throw tooLarge()
  }
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length
      if (size > maxBytes) {
        response.body.destroy()
        throw tooLarge()
      }
      chunks.push(chunk as Buffer)
    }
  } catch (error) {
    throw failure(error, signal, timeoutMs)
  }
  return Buffer.concat(chunks)
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return flat
}
