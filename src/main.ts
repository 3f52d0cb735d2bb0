// Start-up only: config, database and migrations, first-run content, island bundles, listen, close on signals.
import { configOrExit } from './config.ts'
import { embeddedDataDir, openDatabase } from './db/client.ts'
import { buildApp } from './app.ts'
import { seedFirstRun } from './services/library/demo.ts'
import { demoCurlLine } from './services/library/demo-delivery.ts'
import { SESSION_SWEEP_INTERVAL_MS, sweepExpiredSessions } from './services/accounts/sessions.ts'
import { NodeReferencesFiller } from './services/authoring/node-references.ts'
import { SCENARIO_COUNTS_FOLD_INTERVAL_MS, foldScenarioCounts } from './services/scenarios/kept-counts.ts'

/**
 * The embedded database's thread died: every query now fails, so the app stops with the reason rather than serve
 * errors. Whatever runs it (a terminal, a service manager) sees a non-zero exit and can start it again.
 */
function exitOnDatabaseCrash(reason: Error): never {
  console.error(`database: ${reason.message}`)
  process.exit(1)
}

async function main() {
  const config = configOrExit()
  const { buildIslandsIfStale } = await import('../scripts/build-islands.ts')
  if (await buildIslandsIfStale()) console.log('Built the browser islands into static/build/')
  const database = await openDatabase(config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite-worker', dataDir: embeddedDataDir(config.dataDir), onCrash: exitOnDatabaseCrash })
  await database.migrate()
  const app = await buildApp({ config, db: database.db })
  try {
    await app.deps.files.check()
  } catch (error) {
    console.error(`files: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
  const { logins, served } = await seedFirstRun(app.deps, { demo: !config.databaseUrl })
  // The passwords go to the terminal once, in plain text, and never into the structured log (which is kept, shipped
  // and searched); the log only records that the logins were made.
  if (logins.length > 0) {
    app.log.info({ logins: logins.map((l) => ({ email: l.email, role: l.role, owner: l.owner })) }, 'first-run logins created; their passwords were printed on the terminal')
    console.log(['', 'Sign in with:', ...logins.map((l) => `  ${l.email}  ${l.password}   (${l.role}, ${l.owner})`), 'These passwords are shown only now.', ''].join('\n'))
  }
  if (served) {
    console.log([
      `The demo set "Retirement readiness" is published as version ${served.versionNumber}. Ask the Advice API with the demo production key:`,
      `  ${demoCurlLine(config.baseUrl, served)}`,
      `The answer's Decision-Id header names its record: see it under Decisions on ${config.baseUrl}/adviceset/${served.adviceSetId}/decisions (signed in as the author).`,
      'The key is shown only now.', '',
    ].join('\n'))
  }

  const sweep = () => sweepExpiredSessions(app.deps).catch((err) => app.log.error({ err }, 'session sweep failed'))
  await sweep()
  setInterval(sweep, SESSION_SWEEP_INTERVAL_MS).unref()
  const fold = () => foldScenarioCounts(app.deps).catch((err) => app.log.error({ err }, 'folding the kept scenario counts failed'))
  setInterval(fold, SCENARIO_COUNTS_FOLD_INTERVAL_MS).unref()
  // The names each node refers to, filled in behind writes that left them stale (and all of them after the upgrade
  // that added them), so the dictionary finds where an entry is used without parsing nodes.
  const filler = new NodeReferencesFiller(database.db, (err, nodeId) => app.log.error({ err, nodeId }, nodeId === undefined ? 'filling in node references failed' : 'a node\'s references could not be read; it stays stale'))
  app.addHook('onClose', () => filler.stop())

  let closing = false
  const close = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info(`${signal}: closing`)
    await app.close()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void close('SIGINT'))
  process.on('SIGTERM', () => void close('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  filler.start()
  console.log(`Advice Studio is running at ${config.baseUrl} (${database.driver === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`)
}

await main()
