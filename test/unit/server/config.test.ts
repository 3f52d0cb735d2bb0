import t from 'tap'
import { mkdtempSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ConfigError, loadConfig } from '../../../src/config.ts'

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'config-test-'))

t.test('defaults: embedded mode with a generated session secret kept in DATA_DIR', async (t) => {
  const dir = dataDir()
  const config = loadConfig({ DATA_DIR: dir })
  t.equal(config.port, 3000)
  t.equal(config.databaseUrl, undefined)
  t.equal(config.baseUrl, 'http://localhost:3000')
  t.equal(config.secureCookies, false)
  t.equal(config.logLevel, 'info')
  t.equal(config.sessionSecret.length, 64)
  t.equal(readFileSync(path.join(dir, 'session-secret'), 'utf8').trim(), config.sessionSecret)
  t.equal(loadConfig({ DATA_DIR: dir }).sessionSecret, config.sessionSecret, 'the same secret on the next start')
})

t.test('https BASE_URL makes cookies Secure', async (t) => {
  t.equal(loadConfig({ DATA_DIR: dataDir(), BASE_URL: 'https://advice.example/' }).secureCookies, true)
})

t.test('invalid config: one clear line per problem', async (t) => {
  const error = t.throws(() => loadConfig({
    PORT: 'eighty', BASE_URL: 'advice.example', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', SMTP_URL: 'mail.example',
  })) as unknown as ConfigError
  t.ok(error instanceof ConfigError)
  t.same(error.problems, [
    'PORT must be a whole number 0–65535, got "eighty"',
    'BASE_URL must be an http(s) URL, got "advice.example"',
    'DATABASE_URL must start with postgres:// or postgresql://',
    'SMTP_URL must start with smtp:// or smtps://',
    'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    'SESSION_SECRET is required when DATABASE_URL is set (at least 32 characters)',
    'SECRET_KEY is required when DATABASE_URL is set (at least 32 characters; keep it: stored secrets cannot be read without it)',
  ])
})

t.test('a short SESSION_SECRET is refused', async (t) => {
  const error = t.throws(() => loadConfig({ DATA_DIR: dataDir(), SESSION_SECRET: 'short' })) as unknown as ConfigError
  t.same(error.problems, ['SESSION_SECRET must be at least 32 characters'])
})

t.test('SECRET_KEY: generated once into DATA_DIR in embedded mode; a short one is refused', async (t) => {
  const dir = dataDir()
  const config = loadConfig({ DATA_DIR: dir })
  t.equal(config.secretKey.length, 64)
  t.not(config.secretKey, config.sessionSecret, 'a secret of its own, not the session secret')
  t.equal(readFileSync(path.join(dir, 'secret-key'), 'utf8').trim(), config.secretKey)
  t.equal(loadConfig({ DATA_DIR: dir }).secretKey, config.secretKey, 'the same key on the next start')
  const error = t.throws(() => loadConfig({ DATA_DIR: dataDir(), SECRET_KEY: 'short' })) as unknown as ConfigError
  t.same(error.problems, ['SECRET_KEY must be at least 32 characters'])
})

t.test('OUTBOUND_ALLOW: host:port pairs, off by default; a bad entry is named', async (t) => {
  t.same(loadConfig({ DATA_DIR: dataDir() }).outboundAllow, [])
  t.same(loadConfig({ DATA_DIR: dataDir(), OUTBOUND_ALLOW: '127.0.0.1:8080, [::1]:9000,Intranet.local:443' }).outboundAllow, [
    { host: '127.0.0.1', port: 8080 }, { host: '::1', port: 9000 }, { host: 'intranet.local', port: 443 },
  ])
  const error = t.throws(() => loadConfig({ DATA_DIR: dataDir(), OUTBOUND_ALLOW: '127.0.0.1' })) as unknown as ConfigError
  t.same(error.problems, ['OUTBOUND_ALLOW must be a comma-separated list of host:port: "127.0.0.1" is not host:port'])
})

t.test('S3: every setting it needs, checked; none of them without S3_URL', async (t) => {
  const s3 = loadConfig({
    DATA_DIR: dataDir(), S3_URL: 'https://s3.eu-west-1.amazonaws.com/', S3_BUCKET: 'advice-files', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'SK',
  }).s3
  t.same(s3, { endpoint: 'https://s3.eu-west-1.amazonaws.com', bucket: 'advice-files', region: 'us-east-1', accessKeyId: 'AK', secretAccessKey: 'SK', forcePathStyle: true })
  t.equal(loadConfig({ DATA_DIR: dataDir() }).s3, undefined, 'absent: the disk store')
  const error = t.throws(() => loadConfig({ DATA_DIR: dataDir(), S3_URL: 's3.example', S3_BUCKET: 'Bad_Bucket', S3_FORCE_PATH_STYLE: 'maybe' })) as unknown as ConfigError
  t.same(error.problems, [
    'S3_URL must be an http(s) URL, e.g. https://s3.eu-west-1.amazonaws.com',
    'S3_BUCKET must be 3–63 lowercase letters, digits, dots or hyphens, got "Bad_Bucket"',
    'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required with S3_URL',
    'S3_FORCE_PATH_STYLE must be true or false',
  ])
  const stray = t.throws(() => loadConfig({ DATA_DIR: dataDir(), S3_BUCKET: 'files' })) as unknown as ConfigError
  t.same(stray.problems, ['S3_BUCKET is set but S3_URL is not: set S3_URL to store files in S3, or remove S3_BUCKET'])
})
