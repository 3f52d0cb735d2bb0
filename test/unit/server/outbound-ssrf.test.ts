// src/net: the SSRF table of issue 17. No test here may send a packet to a non-loopback address: every refused case
// runs with a connector that fails the test if it is ever called, and the real connections go only to servers this
// file starts on 127.0.0.1 (allow-listed).
import t, { type Test } from 'tap'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { AllowList, createOutbound, OutboundError, type Connector, type Resolver } from '../../../src/net/index.ts'

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

async function localServer(handler: Handler): Promise<{ port: number; url: string; hits: string[] }> {
  const hits: string[] = []
  const server = http.createServer((req, res) => { hits.push(`${req.method} ${req.url}`); handler(req, res) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  const { port } = server.address() as AddressInfo
  return { port, url: `http://127.0.0.1:${port}`, hits }
}

/** A connector standing in for the socket: any call is a failure of the test (recorded with the address asked for). */
function forbiddenConnector(t: Test, calls: string[]): Connector {
  return (options, callback) => {
    calls.push(`${options.hostname}:${options.port}`)
    t.fail(`a socket was opened to ${options.hostname}:${options.port}`)
    callback(new Error('no sockets in this test'), null)
  }
}

/** Names the table uses; anything else is unknown (no real DNS is asked). */
const stubResolver: Resolver = async (hostname) => {
  const names: Record<string, Array<{ address: string; family: number }>> = {
    'localhost': [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }],
    'loopback.example': [{ address: '127.0.0.1', family: 4 }],
    'mixed.example': [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }],
    // Names whose AAAA records carry 127.0.0.1 in an IPv6 form (issue 22): the check applies to what DNS answers.
    'compatible.example': [{ address: '::7f00:1', family: 6 }],
    'compatible-dotted.example': [{ address: '::127.0.0.1', family: 6 }],
    'mapped.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
    'nat64.example': [{ address: '64:ff9b::7f00:1', family: 6 }],
    'nat64-public.example': [{ address: '64:ff9b::5db8:d822', family: 6 }],
    'sixtofour.example': [{ address: '2002:7f00:1::1', family: 6 }],
    'teredo.example': [{ address: '2001:0:5db8:d822::80ff:fffe', family: 6 }],
    'public.example': [{ address: '93.184.216.34', family: 4 }],
  }
  const found = names[hostname]
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
  return found
}

const allowed = await localServer((req, res) => {
  if (req.url?.startsWith('/to-loopback')) {
    res.writeHead(302, { location: `http://127.0.0.1:${unlisted.port}/secret` }).end()
  } else if (req.url?.startsWith('/to-localhost')) {
    res.writeHead(302, { location: `http://localhost:${unlisted.port}/secret` }).end()
  } else if (req.url?.startsWith('/hop/')) {
    const left = Number(req.url.slice('/hop/'.length))
    res.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/ok' }).end()
  } else if (req.url === '/big') {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end(Buffer.alloc(1024 * 1024 + 10, 'a'))
  } else if (req.url === '/big-chunked') {
    res.writeHead(200, { 'content-type': 'text/plain' })
    const chunk = Buffer.alloc(64 * 1024, 'b')
    for (let i = 0; i < 20; i++) res.write(chunk)
    res.end()
  } else if (req.url === '/slow') {
    // Answers only after the client gave up; the server closes with the test.
  } else if (req.url === '/to-other-origin') {
    res.writeHead(302, { location: `http://localhost:${allowed.port}/echo-headers` }).end()
  } else if (req.url === '/echo-headers') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ auth: req.headers.authorization ?? null, key: req.headers['x-api-key'] ?? null, accept: req.headers.accept ?? null }))
  } else if (req.url === '/echo') {
    let body = ''
    req.on('data', (c: Buffer) => { body += c })
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null })))
  } else {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  }
})
const unlisted = await localServer((_req, res) => res.writeHead(200).end('must never be reached'))
const allowList = new AllowList([{ host: '127.0.0.1', port: allowed.port }])

const REFUSED = [
  'http://127.0.0.1/',
  `http://127.0.0.1:${unlisted.port}/`,
  'http://localhost/',
  `http://localhost:${unlisted.port}/`,
  'http://[::1]/',
  'http://0.0.0.0/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://224.0.0.1/',
  'http://[fd00:ec2::254]/',
  'http://[fe80::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://017700000001/',
  'http://0177.0.0.1/',
  'http://127.1/',
  'http://loopback.example/',
  'http://mixed.example/',
  // IPv6 forms that carry an IPv4 address (issue 22), each at both local listeners: the allow-listed 127.0.0.1 port
  // admits 127.0.0.1 as written, not the same address smuggled in an IPv6 form.
  ...[unlisted.port, allowed.port].flatMap((port) => [
    ...[
      '::127.0.0.1', '::7f00:1', '0:0:0:0:0:0:7f00:1', // IPv4-compatible
      '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:127.0.0.1', // IPv4-mapped
      '::ffff:0:127.0.0.1', // IPv4-translated
      '64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b:1::7f00:1', '64:ff9b::5db8:d822', // NAT64, the last one public
      '2002:7f00:1::1', '2002:5db8:d822::1', // 6to4, the last one public
      '2001:0:7f00:1::1', '2001:0:5db8:d822::80ff:fffe', '2001:0:5db8:d822::a2b8:27dd', // Teredo (server, client, public)
    ].map((address) => `http://[${address}]:${port}/`),
    ...['compatible', 'compatible-dotted', 'mapped', 'nat64', 'nat64-public', 'sixtofour', 'teredo'].map((name) => `http://${name}.example:${port}/`),
  ]),
]

t.test('every SSRF spelling is refused before any socket is opened', async (t) => {
  for (const url of REFUSED) {
    const calls: string[] = []
    const outbound = createOutbound({ allow: allowList, resolve: stubResolver, connector: forbiddenConnector(t, calls) })
    const error = await outbound.send({ url }).then(() => null, (e: unknown) => e)
    t.ok(error instanceof OutboundError, `${url} is refused`)
    t.equal((error as OutboundError).code, 'REFUSED_ADDRESS', `${url}: ${(error as Error).message}`)
    t.same(calls, [], `${url}: refused before connecting`)
  }
  t.same(unlisted.hits, [], 'the unlisted local server was never reached')
  t.same(allowed.hits, [], 'the allow-listed local server was never reached in an IPv6 form')
})

t.test('an IPv6 form of loopback names loopback as the reason', async (t) => {
  const outbound = createOutbound({ resolve: stubResolver, connector: forbiddenConnector(t, []) })
  await t.rejects(outbound.send({ url: 'http://[::127.0.0.1]/' }), { message: 'Requests to loopback addresses are not allowed.' })
  await t.rejects(outbound.send({ url: 'http://nat64.example/' }), { message: 'Requests to loopback addresses are not allowed (nat64.example resolves to 64:ff9b::7f00:1).' })
  await t.rejects(outbound.send({ url: 'http://[64:ff9b::5db8:d822]/' }), { message: 'Requests to NAT64 addresses are not allowed.' })
})

t.test('the messages say why', async (t) => {
  const outbound = createOutbound({ resolve: stubResolver, connector: forbiddenConnector(t, []) })
  await t.rejects(outbound.send({ url: 'http://169.254.169.254/' }), { message: 'Requests to link-local (including cloud metadata) addresses are not allowed.' })
  await t.rejects(outbound.send({ url: 'http://loopback.example/' }), { message: 'Requests to loopback addresses are not allowed (loopback.example resolves to 127.0.0.1).' })
  await t.rejects(outbound.send({ url: 'file:///etc/passwd' }), { code: 'BAD_URL' })
  await t.rejects(outbound.send({ url: 'http://user:pw@public.example/' }), { code: 'BAD_URL' })
  await t.rejects(outbound.send({ url: 'not a url' }), { code: 'BAD_URL' })
  await t.rejects(outbound.send({ url: 'http://nowhere.example/' }), { code: 'DNS', message: 'The host nowhere.example could not be found.' })
})

t.test('a public name is connected to at the address that was checked (pinned), not resolved again', async (t) => {
  const asked: string[] = []
  let lookups = 0
  const connector: Connector = (options, callback) => {
    asked.push(`${options.hostname}:${options.port || 80}`)
    callback(new Error('stopped before any packet'), null)
  }
  const outbound = createOutbound({ resolve: async (name) => { lookups++; return stubResolver(name) }, connector })
  await t.rejects(outbound.send({ url: 'http://public.example/path' }), { code: 'NETWORK' })
  t.same(asked, ['93.184.216.34:80'], 'the connector was handed the vetted address in place of the name')
  t.equal(lookups, 1, 'one DNS lookup per request')
})

t.test('the allow-listed local server is reached; a redirect from it to an unlisted loopback port is refused', async (t) => {
  const outbound = createOutbound({ allow: allowList, resolve: stubResolver })
  const ok = await outbound.send({ url: `${allowed.url}/data` })
  t.equal(ok.status, 200)
  t.same(JSON.parse(ok.body.toString()), { ok: true })
  t.equal(ok.redirects, 0)
  await t.rejects(outbound.send({ url: `${allowed.url}/to-loopback` }), { code: 'REFUSED_ADDRESS' })
  await t.rejects(outbound.send({ url: `${allowed.url}/to-localhost` }), { code: 'REFUSED_ADDRESS' })
  t.same(unlisted.hits, [], 'the redirect target was never reached')
})

t.test('an allow-list entry by name admits that name only on its port', async (t) => {
  const outbound = createOutbound({ allow: new AllowList([{ host: 'loopback.example', port: allowed.port }]), resolve: stubResolver })
  t.equal((await outbound.send({ url: `http://loopback.example:${allowed.port}/x` })).status, 200)
  const forbidden = createOutbound({ allow: new AllowList([{ host: 'loopback.example', port: allowed.port }]), resolve: stubResolver, connector: forbiddenConnector(t, []) })
  await t.rejects(forbidden.send({ url: `http://loopback.example:${unlisted.port}/x` }), { code: 'REFUSED_ADDRESS' })
})

t.test('at most 3 redirects are followed', async (t) => {
  const outbound = createOutbound({ allow: allowList })
  const three = await outbound.send({ url: `${allowed.url}/hop/2` })
  t.equal(three.status, 200)
  t.equal(three.redirects, 3)
  t.match(three.url, /\/ok$/)
  await t.rejects(outbound.send({ url: `${allowed.url}/hop/3` }), { code: 'TOO_MANY_REDIRECTS' })
})

t.test('answers over 1 MB are cut off, whether or not they declare their length', async (t) => {
  const outbound = createOutbound({ allow: allowList })
  await t.rejects(outbound.send({ url: `${allowed.url}/big` }), { code: 'TOO_LARGE' })
  await t.rejects(outbound.send({ url: `${allowed.url}/big-chunked` }), { code: 'TOO_LARGE' })
  t.equal((await outbound.send({ url: `${allowed.url}/big-chunked`, maxBytes: 2 * 1024 * 1024 })).body.length, 20 * 64 * 1024)
})

t.test('a server slower than the timeout gives TIMEOUT', async (t) => {
  const outbound = createOutbound({ allow: allowList })
  await t.rejects(outbound.send({ url: `${allowed.url}/slow`, timeoutMs: 150 }), { code: 'TIMEOUT', message: 'No complete answer within 150 ms.' })
})

t.test('method, headers and body are sent; connection headers are not', async (t) => {
  const outbound = createOutbound({ allow: allowList })
  const res = await outbound.send({ url: `${allowed.url}/echo`, method: 'post', headers: { authorization: 'Bearer x', host: 'evil.example' }, body: '{"a":1}' })
  t.same(JSON.parse(res.body.toString()), { method: 'POST', body: '{"a":1}', auth: 'Bearer x' })
})

t.test('a redirect to another origin carries no credentials', async (t) => {
  const outbound = createOutbound({ allow: new AllowList([{ host: '127.0.0.1', port: allowed.port }, { host: 'localhost', port: allowed.port }]), resolve: stubResolver })
  const res = await outbound.send({ url: `${allowed.url}/to-other-origin`, headers: { authorization: 'Bearer secret', 'x-api-key': 'k', accept: 'application/json' } })
  t.same(JSON.parse(res.body.toString()), { auth: null, key: null, accept: 'application/json' })
})
