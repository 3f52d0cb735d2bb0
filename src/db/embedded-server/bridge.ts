// The embedded database behind the PostgreSQL wire protocol, on a local socket: the app reaches PGlite with
// postgres.js as it would reach a server, while PGlite runs on a thread of its own (worker.ts). PGlite is one
// PostgreSQL backend, so the bridge serves one connection at a time (the app's pool holds one); a connection that
// arrives meanwhile waits for the one before it to close. PGlite answers the start-up message itself (no password:
// the socket is a file only this user can open).
import net from 'node:net'
import type { PGlite } from '@electric-sql/pglite'

/** The first message of a session carries no type byte: its length, then the protocol version 3.0. */
const PROTOCOL_3 = 196_608
const SSL_REQUEST = 80_877_103
const TERMINATE = 0x58 // 'X'
const NOT_YET = Symbol('not idle')

/** How many bytes of `buffer` are whole messages (the start-up message first when `started` is false). */
export function wholeMessages(buffer: Buffer, started: boolean): number {
  let at = 0
  if (!started) {
    if (buffer.length < 8) return 0
    const length = buffer.readInt32BE(0)
    return buffer.length >= length ? length : 0
  }
  while (buffer.length - at >= 5) {
    const length = 1 + buffer.readInt32BE(at + 1)
    if (buffer.length - at < length) break
    at += length
  }
  return at
}

const PARSE = 0x50 // 'P'
const BIND = 0x42 // 'B'
const QUERY = 0x51 // 'Q'

/**
 * Whether, after `messages`, the connection has parsed an unnamed statement it has not yet bound. postgres.js parses
 * and describes a statement in one round trip and binds it in the next; a statement of the bridge's own in between
 * (upkeep, a COPY) would replace the unnamed one, and the bind would then fail ("bind message supplies 3 parameters,
 * but prepared statement "" requires 0").
 */
export function leavesUnnamedStatement(messages: Buffer, before: boolean): boolean {
  let pending = before
  for (let at = 0; at + 5 <= messages.length; at += 1 + messages.readInt32BE(at + 1)) {
    const type = messages[at]
    if (type === PARSE) { if (messages[at + 5] === 0) pending = true } else if (type === BIND) {
      const statementName = messages.indexOf(0, at + 5) + 1
      if (messages[statementName] === 0) pending = false
    } else if (type === QUERY) pending = false
  }
  return pending
}

export interface IdleTaskOptions {
  /** False for the database's own upkeep, so that busyMs() says how busy the app keeps it. Default true. */
  countAsBusy?: boolean
}

export interface Bridge {
  /**
   * Runs `task` (statements of the bridge's own: checkpoints, decision records) between the connection's work, when it
   * is neither inside a transaction nor between parsing and binding a statement.
   */
  whenIdle<T>(task: () => Promise<T>, options?: IdleTaskOptions): Promise<T>
  /** Milliseconds PGlite has spent on the app's work so far: the connections', and what whenIdle ran as counted. */
  busyMs(): number
  close(): Promise<void>
}

export function serveOverSocket(client: PGlite, socketPath: string, onError: (err: unknown) => void): Promise<Bridge> {
  const waiting: net.Socket[] = []
  let active: net.Socket | null = null
  /** Work on PGlite runs one piece at a time, in order: a connection's messages, a reset, upkeep between them. */
  let chain: Promise<unknown> = Promise.resolve()
  let busyMs = 0
  const timed = async <T>(task: () => Promise<T>): Promise<T> => {
    const started = performance.now()
    try { return await task() } finally { busyMs += performance.now() - started }
  }
  const run = <T>(task: () => Promise<T>, countAsBusy = true): Promise<T> => {
    const next = chain.then(() => (countAsBusy ? timed(task) : task()))
    chain = next.catch(() => undefined)
    return next
  }
  /** The active connection's unnamed statement is parsed and not yet bound (leavesUnnamedStatement). */
  let unnamedPending = false
  /** Between two pieces of the connection's work, may PGlite run statements of the bridge's own? */
  const idle = () => !client.isInTransaction() && !unnamedPending
  /** Upkeep waiting for the transaction under way to end. */
  let idleWaiters: Array<() => void> = []
  /** Once closing, PGlite is about to close too: a connection's end needs no reset. */
  let closing = false

  const serveNext = () => {
    active = null
    // A connection that failed while waiting is gone: its close has fired already.
    let next = waiting.shift()
    while (next?.destroyed) next = waiting.shift()
    if (next) serve(next)
  }

  const serve = (socket: net.Socket) => {
    active = socket
    let buffer = Buffer.alloc(0)
    let started = false
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
      // An SSL request comes before the start-up message: no SSL over a local socket.
      if (!started && buffer.length >= 8 && buffer.readInt32BE(0) === 8 && buffer.readInt32BE(4) === SSL_REQUEST) {
        buffer = buffer.subarray(8)
        socket.write('N')
      }
      for (let whole = wholeMessages(buffer, started); whole > 0; whole = wholeMessages(buffer, started)) {
        const messages = buffer.subarray(0, whole)
        buffer = buffer.subarray(whole)
        const startup = !started
        if (startup && messages.readInt32BE(4) !== PROTOCOL_3) { socket.destroy(); return }
        // Terminate comes alone, as a connection's last message; the reset on close does what PGlite would.
        if (!startup && messages[0] === TERMINATE) { socket.end(); return }
        started = true
        void run(async () => {
          if (!startup) unnamedPending = leavesUnnamedStatement(messages, unnamedPending)
          const reply = await client.execProtocolRaw(new Uint8Array(messages.buffer, messages.byteOffset, messages.byteLength), { syncToFs: false })
          if (!socket.destroyed) socket.write(reply)
          if (idle()) releaseIdle()
        }).catch((err: unknown) => { onError(err); socket.destroy() })
      }
    })
    socket.on('close', () => {
      if (closing) return
      // What the connection left behind must not reach the next one: an open transaction, its prepared statements
      // (postgres.js numbers them afresh on each connection), cursors and settings. Not its LISTENs, which the app
      // takes out once for the life of the database (notifications.ts).
      void run(async () => {
        if (client.isInTransaction()) await client.exec('ROLLBACK')
        await client.exec('DEALLOCATE ALL; CLOSE ALL; RESET ALL')
        unnamedPending = false
        releaseIdle()
      }).catch(onError).finally(serveNext)
    })
  }
  const releaseIdle = () => {
    const waiters = idleWaiters
    idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  const server = net.createServer((socket) => {
    socket.setNoDelay(true)
    // From the start, waiting or served: an error with no listener would end the worker, and the database with it.
    socket.on('error', () => socket.destroy())
    if (active) waiting.push(socket)
    else serve(socket)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(socketPath, () => {
      server.off('error', reject)
      resolve({
        whenIdle: async (task, options) => {
          // The check and the task are one piece of work; between tries, the connection's work goes on.
          for (;;) {
            const done = await run(async () => (idle() ? { value: await task() } : NOT_YET), options?.countAsBusy)
            if (done !== NOT_YET) return done.value
            await new Promise<void>((release) => idleWaiters.push(release))
          }
        },
        busyMs: () => busyMs,
        close: async () => {
          closing = true
          for (const socket of [active, ...waiting]) socket?.destroy()
          await new Promise<void>((done) => server.close(() => done()))
          await chain
        },
      })
    })
  })
}
