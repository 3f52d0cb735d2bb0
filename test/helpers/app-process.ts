// The app as `npm start` runs it (src/main.ts), in a child process of its own on a PostgreSQL database: for tests and
// scripts that kill it (crash durability) or run several instances side by side.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')
const READY = /Advice Studio is running at/
const START_TIMEOUT_MS = 60_000

export interface AppProcess {
  url: string
  port: number
  child: ChildProcess
  /** What the process wrote to stderr (and stdout), for the message when it dies unexpectedly. */
  output(): string
  /** SIGKILL: no shutdown hook runs, as when the machine or the container dies. Resolves once it is gone. */
  kill(): Promise<void>
  /** SIGTERM and wait: the app closes as in a normal shutdown. */
  stop(): Promise<void>
}

/** A port free right now on 127.0.0.1 (the app is then told to listen on it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })
}

/** Settings every instance on one database shares (the session secret above all: any instance reads any session). */
export function sharedAppEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'instances-session-secret-0123456789abcdef',
    SECRET_KEY: 'instances-secret-key-0123456789abcdef012345',
    LOG_LEVEL: 'warn',
  }
}

/** Starts src/main.ts with `env` on `port` (a free one if not given) and resolves once it listens, within `timeoutMs`
 * (default 60 s). */
export async function startAppProcess(opts: { env: Record<string, string>; port?: number; dataDir?: string; timeoutMs?: number }): Promise<AppProcess> {
  const port = opts.port ?? await freePort()
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'advice-studio-instance-'))
  // node with tsx as a loader, not the tsx CLI: the CLI runs the app in a second process a SIGKILL would not reach.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  // 'close', not 'exit': by then its output has been read to the end.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    const timeoutMs = opts.timeoutMs ?? START_TIMEOUT_MS
    const timer = setTimeout(() => reject(new Error(`the app did not start within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.length > 100_000) output = output.slice(-50_000)
      if (READY.test(output)) { clearTimeout(timer); resolve() }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`the app exited (${signal ?? code}) before listening:\n${output}`)) })
  })
  const gone = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    await exited
  }
  return { url: `http://127.0.0.1:${port}`, port, child, output: () => output, kill: () => gone('SIGKILL'), stop: () => gone('SIGTERM') }
}
