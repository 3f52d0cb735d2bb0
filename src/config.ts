// Environment → typed, validated config. Start-up stops with one clear line per problem.
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { parseAllowList, type AllowEntry } from './net/allow-list.ts'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

export interface Config {
  port: number
  host: string
  baseUrl: string
  dataDir: string
  /** Absent → embedded PGlite under dataDir. */
  databaseUrl?: string
  sessionSecret: string
  /** Absent → mail is written to dataDir/outbox and its link logged. */
  smtpUrl?: string
  logLevel: LogLevel
  meiliUrl?: string
  meiliKey?: string
  /** The search index is named `${searchIndexPrefix}_updatedAt` (SPEC §7). */
  searchIndexPrefix: string
  /** True when BASE_URL is https: cookies get the Secure flag. */
  secureCookies: boolean
  /** Trust X-Forwarded-* (client address for rate limits, https detection) — only behind your own proxy. */
  trustProxy: boolean
  /** OUTBOUND_ALLOW: host:port pairs outbound requests may reach despite the SSRF checks (tests, on-premise). */
  outboundAllow: AllowEntry[]
  /** Encrypts secrets stored in the database (external API header values); never stored there. */
  secretKey: string
  /** Absent → uploaded files live on the local disk under dataDir/files. */
  s3?: S3Config
}

/** S3-compatible storage for uploaded files (AWS S3, MinIO, Ceph, R2 …). */
export interface S3Config {
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** Bucket in the path (`https://host/bucket/key`) rather than the host name; what most non-AWS servers need. */
  forcePathStyle: boolean
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'))
  }
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
const MIN_SECRET_LENGTH = 32

type Env = Record<string, string | undefined>

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = []
  const port = parsePort(env.PORT ?? '3000', problems)
  const host = env.HOST ?? '127.0.0.1'
  const baseUrl = (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '')
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl)) problems.push(`BASE_URL must be an http(s) URL, got "${baseUrl}"`)
  const dataDir = path.resolve(env.DATA_DIR ?? './data')
  const databaseUrl = env.DATABASE_URL || undefined
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://')
  }
  const smtpUrl = env.SMTP_URL || undefined
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must start with smtp:// or smtps://')
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
  const trustProxy = (env.TRUST_PROXY ?? 'false').toLowerCase()
  if (!['true', 'false'].includes(trustProxy)) problems.push('TRUST_PROXY must be true or false')
  const meiliUrl = env.MEILI_URL || undefined
  if (meiliUrl && !/^https?:\/\//.test(meiliUrl)) problems.push('MEILI_URL must be an http(s) URL')
  const searchIndexPrefix = env.SEARCH_INDEX_PREFIX || 'advice'
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(searchIndexPrefix)) problems.push('SEARCH_INDEX_PREFIX may hold only letters, digits, - and _ (at most 100)')

  const s3 = s3Config(env, problems)

  let sessionSecret = env.SESSION_SECRET
  if (sessionSecret !== undefined && sessionSecret.length < MIN_SECRET_LENGTH) {
    problems.push(`SESSION_SECRET must be at least ${MIN_SECRET_LENGTH} characters`)
  } else if (sessionSecret === undefined && databaseUrl) {
    problems.push('SESSION_SECRET is required when DATABASE_URL is set (at least 32 characters)')
  }
  let outboundAllow: AllowEntry[] = []
  try {
    outboundAllow = parseAllowList(env.OUTBOUND_ALLOW)
  } catch (error) {
    problems.push(`OUTBOUND_ALLOW must be a comma-separated list of host:port: ${(error as Error).message}`)
  }
  let secretKey = env.SECRET_KEY
  if (secretKey !== undefined && secretKey.length < MIN_SECRET_LENGTH) {
    problems.push(`SECRET_KEY must be at least ${MIN_SECRET_LENGTH} characters`)
  } else if (secretKey === undefined && databaseUrl) {
    problems.push('SECRET_KEY is required when DATABASE_URL is set (at least 32 characters; keep it: stored secrets cannot be read without it)')
  }
  if (problems.length > 0) throw new ConfigError(problems)
  sessionSecret ??= embeddedSecret(dataDir, 'session-secret')
  secretKey ??= embeddedSecret(dataDir, 'secret-key')

  return {
    port, host, baseUrl, dataDir, databaseUrl, sessionSecret, smtpUrl, logLevel, meiliUrl,
    meiliKey: env.MEILI_KEY || undefined,
    searchIndexPrefix,
    secureCookies: baseUrl.startsWith('https://'),
    trustProxy: trustProxy === 'true',
    outboundAllow,
    secretKey,
    ...(s3 ? { s3 } : {}),
  }
}

const S3_SETTINGS = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_REGION', 'S3_FORCE_PATH_STYLE'] as const
/** AWS's rule for bucket names, which other S3-compatible servers follow. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

function s3Config(env: Env, problems: string[]): S3Config | undefined {
  const endpoint = env.S3_URL || undefined
  if (!endpoint) {
    for (const name of S3_SETTINGS) if (env[name]) problems.push(`${name} is set but S3_URL is not: set S3_URL to store files in S3, or remove ${name}`)
    return undefined
  }
  if (!/^https?:\/\/[^/\s]+/.test(endpoint)) problems.push('S3_URL must be an http(s) URL, e.g. https://s3.eu-west-1.amazonaws.com')
  const bucket = env.S3_BUCKET ?? ''
  if (!bucket) problems.push('S3_BUCKET is required with S3_URL')
  else if (!BUCKET_NAME.test(bucket)) problems.push(`S3_BUCKET must be 3–63 lowercase letters, digits, dots or hyphens, got "${bucket}"`)
  const accessKeyId = env.S3_ACCESS_KEY_ID ?? ''
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY ?? ''
  if (!accessKeyId || !secretAccessKey) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_URL')
  const forcePathStyle = (env.S3_FORCE_PATH_STYLE ?? 'true').toLowerCase()
  if (!['true', 'false'].includes(forcePathStyle)) problems.push('S3_FORCE_PATH_STYLE must be true or false')
  const region = env.S3_REGION || 'us-east-1'
  if (!/^[a-z0-9-]{1,40}$/.test(region)) problems.push(`S3_REGION must be a region name such as eu-west-1, got "${region}"`)
  return { endpoint: endpoint.replace(/\/+$/, ''), bucket, region, accessKeyId, secretAccessKey, forcePathStyle: forcePathStyle === 'true' }
}

function parsePort(raw: string, problems: string[]): number {
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a whole number 0–65535, got "${raw}"`)
  return port
}

/** Embedded mode keeps generated secrets in DATA_DIR (sessions and stored secrets survive restarts). */
function embeddedSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name)
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  return secret
}

/** For the commands (`npm start` and the scripts): the configuration, or each problem printed and exit code 1. */
export function configOrExit(): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    for (const problem of error.problems) console.error(`config: ${problem}`)
    process.exit(1)
  }
}
