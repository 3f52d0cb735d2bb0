// The command-line tool against two running instances (advice-cli-cases.ts). Instance A is on PGlite, B on the run's
// database. When the run also has PostgreSQL (TEST_DATABASE_URL), its PostgreSQL pass (A on PGlite, B on PostgreSQL)
// covers everything the PGlite pass would, so the PGlite pass skips it: two app instances and twenty tool runs are
// half a minute of a 2-core CI machine.
import t from 'tap'
import { testDriver } from '../../helpers/database.ts'

if (testDriver() === 'pglite' && process.env.TEST_DATABASE_URL) {
  t.test('the CLI between two instances', { skip: 'the PostgreSQL pass runs it, with instance A on PGlite and B on PostgreSQL' }, () => {})
} else {
  await import('./advice-cli-cases.ts')
}
