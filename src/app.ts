// The whole app as a Fastify plugin tree, used by main.ts and by the tests.
import path from 'node:path'
import zlib from 'node:zlib'
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify'
import compress from '@fastify/compress'
import formbody from '@fastify/formbody'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import staticFiles from '@fastify/static'
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import { createMailer, type Mailer } from './services/accounts/mailer.ts'
import type { Deps } from './services/context.ts'
import { JobQueue } from './jobs/queue.ts'
import { registerJobKinds } from './services/operations/job-kinds.ts'
import { AllowList, createOutbound, type Outbound } from './net/index.ts'
import { createFileStore, type FileStore } from './files/index.ts'
import sessionPlugin from './http/plugins/session.ts'
import securityPlugin from './http/plugins/security.ts'
import cacheControlPlugin from './http/plugins/cache-control.ts'
import viewPlugin from './http/plugins/view.ts'
import inputGuardPlugin from './http/plugins/input-guard.ts'
import originGuardPlugin from './http/plugins/origin-guard.ts'
import errorsPlugin, { notFoundPlugin } from './http/plugins/errors.ts'
import authPlugin from './http/plugins/auth.ts'
import accessTokensPlugin from './http/plugins/access-tokens.ts'
import openApiPlugin from './http/plugins/openapi.ts'
import apiUsagePlugin from './http/plugins/api-usage.ts'
import { pageRoutes } from './http/pages/index.ts'
import { apiRoutes } from './http/api/index.ts'
import { partnerApi, partnerContextPlugin } from './http/api/advice-partner.ts'
import { serializeRequest } from './http/log-redaction.ts'
import { lazyRouteCompilers } from './http/lazy-route-compilers.ts'

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps
  }
}

export interface BuildAppOptions {
  config: Config
  db: Db
  mailer?: Mailer
  /** Default: src/net with the config's OUTBOUND_ALLOW. */
  outbound?: Outbound
  /** The file store to use; by default the one the config names, closed with the app. */
  files?: FileStore
  logger?: FastifyServerOptions['logger']
  /** Sees every route as it is registered (the page-marker test walks all page routes with it). */
  onRoute?: (route: RouteOptions) => void
  /** False: no job worker in this app (benchmarks that measure the request path alone). Default true. */
  jobs?: boolean
}

const STATIC_DIR = path.resolve(import.meta.dirname, '../static')

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: opts.config.logLevel, serializers: { req: serializeRequest } },
    trustProxy: opts.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Ready waits for the job queue, the search indexer's catch-up and the publish listener. On a busy 2-core machine
    // (CI, or a host starting many things at once) that measured over Fastify's default 10 s and the start failed.
    pluginTimeout: 60_000,
    genReqId: () => crypto.randomUUID(),
    // Unknown properties are refused with their name rather than silently dropped.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
    schemaController: { compilersFactory: lazyRouteCompilers() },
  }).withTypeProvider<TypeBoxTypeProvider>()
  const mailer = opts.mailer ?? createMailer({ smtpUrl: opts.config.smtpUrl, outboxDir: path.join(opts.config.dataDir, 'outbox'), log: app.log })
  const jobs = new JobQueue(opts.db, app.log)
  const outbound = opts.outbound ?? createOutbound({ allow: new AllowList(opts.config.outboundAllow) })
  const files = opts.files ?? createFileStore(opts.config)
  if (!opts.files) app.addHook('onClose', () => files.close())
  const deps: Deps = { db: opts.db, mailer, config: opts.config, jobs, outbound, files }
  app.decorate('deps', deps)
  registerJobKinds(deps)
  // Every instance is also a worker: the queue starts once the app is ready and stops (handing running jobs back)
  // before the database closes.
  app.addHook('onReady', async () => { if (opts.jobs !== false) await jobs.start() })
  app.addHook('onClose', async () => { await jobs.stop() })
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute)

  await app.register(securityPlugin)
  await app.register(errorsPlugin)
  await app.register(inputGuardPlugin)
  await app.register(staticFiles, { root: STATIC_DIR, prefix: '/static/', decorateReply: false, maxAge: '1h' })
  await app.register(openApiPlugin)
  await app.register(apiUsagePlugin)
  await app.register(partnerContextPlugin)
  // Partner routes are authenticated by their key alone. Outside the browser app's context they pay for no cookie
  // parsing, session or CSRF check, and cannot be reached through a session.
  await app.register(partnerApi, { prefix: '/api' })
  await app.register(async function browserApp(browser) {
    // Pages and the app's own JSON compress well (a large rule's page: ~1 MB of markup → ~0.1 MB sent). Brotli at its
    // default quality (11) costs tens of ms per MB; 4 compresses nearly as well at gzip's speed. Partner routes stay
    // outside: their small answers gain little and their CPU per request is budgeted (bench:api).
    await browser.register(compress, { threshold: 1024, brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } })
    await browser.register(cacheControlPlugin)
    await browser.register(formbody)
    await browser.register(sessionPlugin, { db: opts.db, secret: opts.config.sessionSecret, secure: opts.config.secureCookies })
    await browser.register(viewPlugin, { cache: true })
    await browser.register(authPlugin, { deps })
    // A personal access token in place of the session, on the routes that declare its scope (issue 28).
    await browser.register(accessTokensPlugin)
    // Another site's state-changing request is refused before any body is parsed (after the session is read, so the
    // refusal is a page with the user's header).
    await browser.register(originGuardPlugin)
    await browser.register(notFoundPlugin)
    await browser.register(pageRoutes)
    await browser.register(apiRoutes, { prefix: '/api' })
  })
  return app
}
