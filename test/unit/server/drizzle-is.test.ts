// patches/drizzle-orm+0.45.4.patch keeps drizzle's is() answers per prototype and type (a third of a query's build
// time went to working them out again). The answers must be drizzle's own, and the patch must be applied.
import t from 'tap'
import { Column, entityKind, eq, is, SQL, sql, Table } from 'drizzle-orm'
import { users } from '../../../src/db/schema/index.ts'

t.test('the answers are drizzle’s', async (t) => {
  t.equal(is(eq(users.id, 1), SQL), true, 'a condition is SQL')
  t.equal(is(users.id, Column), true, 'a column is a Column')
  t.equal(is(users.id, SQL), false, 'and not SQL')
  t.equal(is(users, Table), true, 'a table is a Table')
  t.equal(is(sql`select 1`, Column), false)
  t.equal(is({}, SQL), false, 'a plain object is no entity')
  t.equal(is([], SQL), false)
  t.equal(is(null, SQL), false)
  t.equal(is('text', SQL), false)
  t.throws(() => is({}, class NotAnEntity {} as unknown as typeof SQL), /doesn't look like a Drizzle entity/, 'a class without a kind is refused')
  t.throws(() => is(Object.create(null), SQL), TypeError, 'an object without a prototype fails as drizzle’s own check does')
})

t.test('another copy of drizzle’s class is recognised by its kind, and asked once', async (t) => {
  let asked = 0
  class OtherCopyOfSql {
    static get [entityKind](): string {
      asked++
      return 'SQL'
    }
  }
  class Unrelated {
    static readonly [entityKind] = 'Unrelated'
  }
  t.equal(is(new OtherCopyOfSql(), SQL), true, 'the same kind from another copy')
  const afterFirst = asked
  t.ok(afterFirst > 0, 'the first answer read the kind')
  t.equal(is(new OtherCopyOfSql(), SQL), true)
  t.equal(is(new OtherCopyOfSql(), SQL), true)
  t.equal(asked, afterFirst, 'later answers for the same prototype are kept, not worked out again (the patch is applied)')
  t.equal(is(new Unrelated(), SQL), false, 'another kind is not SQL')
})
