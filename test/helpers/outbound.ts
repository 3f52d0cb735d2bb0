// Outbound requests in API and browser tests: src/net as the app uses it, with its socket connect guarded so that no
// test can ever send a packet beyond this machine's loopback (a connection to any other address fails the test
// before it is made), and local HTTP servers for the tests to call.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildConnector } from 'undici'
import { AllowList, createOutbound, type AllowEntry, type Connector, type Outbound } from '../../src/net/index.ts'

interface Teardown { teardown(fn: () => unknown): void; fail(message: string): void }

/** src/net with the given allow-list, connecting only to loopback addresses. */
export function loopbackOnlyOutbound(t: Pick<Teardown, 'fail'>, allow: readonly AllowEntry[]): Outbound {
  const real = buildConnector({})
  const connector: Connector = (options, callback) => {
    if (options.hostname !== '127.0.0.1' && options.hostname !== '::1') {
      t.fail(`a test tried to connect to ${options.hostname}`)
      callback(new Error('tests connect only to loopback'), null)
      return
    }
    real(options, callback)
  }
  return createOutbound({ allow: new AllowList(allow), connector })
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void

export interface LocalServer { port: number; url: string; requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>; handle(handler: Handler): void }

/** An HTTP server on 127.0.0.1 (random port) closed on teardown; its handler can be swapped while it runs. */
export async function startLocalServer(t: Teardown, handler: Handler): Promise<LocalServer> {
  let current = handler
  const requests: LocalServer['requests'] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => { body += chunk })
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      current(req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  const { port } = server.address() as AddressInfo
  return { port, url: `http://127.0.0.1:${port}`, requests, handle: (next) => { current = next } }
}
