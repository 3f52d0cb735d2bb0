// `npm run seed:scale [-- --scale 0.1]`: adds the big tenant of issue 29 (scripts/scale/seed.ts) to the database
// `npm start` uses (DATABASE_URL, or the embedded one in DATA_DIR; stop the server first, PGlite has one user at a
// time). PostgreSQL takes scale 1; PGlite a tenth. Prints the tenant admin's sign-in at the end.
import { configOrExit } from '../src/config.ts'
import { buildApp } from '../src/app.ts'
import { embeddedDataDir, openDatabase } from '../src/db/client.ts'
import { seedScaleTenant } from './scale/seed.ts'

const at = process.argv.indexOf('--scale')
const scale = at > 0 ? Number(process.argv[at + 1]) : 1
if (!(scale > 0 && scale <= 1)) {
  console.error('--scale: give a number above 0 and at most 1 (1 is the full tenant, 0.1 a tenth).')
  process.exit(1)
}

const config = configOrExit()
const database = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: embeddedDataDir(config.dataDir) })
await database.migrate()
const app = await buildApp({ config: { ...config, logLevel: 'silent' }, db: database.db, logger: false })
await app.ready()
console.log(`Seeding the big tenant at scale ${scale} in ${database.driver === 'pglite' ? `the embedded database (${config.dataDir})` : 'PostgreSQL'}`)
const started = performance.now()
try {
  const tenant = await seedScaleTenant(app, scale, (line) => console.log(`  ${line}`))
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(0)} s. Sign in as ${tenant.adminEmail} with ${tenant.adminPassword} (owner "Scale Advisers").`)
} finally {
  await app.close()
  await database.close()
}
