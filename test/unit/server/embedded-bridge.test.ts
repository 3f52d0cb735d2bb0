// The embedded database behind the wire protocol (src/db/embedded-server/bridge.ts): postgres.js reaches an in-process
// PGlite through it as it would a server, one connection at a time, and the bridge's own statements (checkpoints,
// decision records) run only between the connection's transactions and statements.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import postgres from 'postgres'
import { PGlite } from '@electric-sql/pglite'
import { leavesUnnamedStatement, serveOverSocket, wholeMessages } from '../../../src/db/embedded-server/bridge.ts'
import { preparedByDefault } from '../../../src/db/prepared-statements.ts'

/** A protocol message: type byte, length, body. */
const message = (type: string, body: Buffer) => Buffer.concat([Buffer.from(type), Buffer.from([0, 0, 0, 0].map((_, i) => ((body.length + 4) >> (24 - 8 * i)) & 255)), body])
const cstring = (text: string) => Buffer.from(`${text}\0`)
const parse = (name: string) => message('P', Buffer.concat([cstring(name), cstring('select $1::int'), Buffer.from([0, 0])]))
const bind = (statement: string) => message('B', Buffer.concat([cstring(''), cstring(statement), Buffer.from([0, 0, 0, 0, 0, 0])]))
const sync = message('S', Buffer.alloc(0))
const query = message('Q', cstring('select 1'))

t.test('whole messages: a message split across chunks waits for its end', async (t) => {
  const two = Buffer.concat([parse(''), sync])
  t.equal(wholeMessages(two, true), two.length)
  t.equal(wholeMessages(two.subarray(0, two.length - 1), true), parse('').length, 'the cut Sync waits')
  t.equal(wholeMessages(two.subarray(0, 3), true), 0)
  const startup = Buffer.from([0, 0, 0, 8, 0, 3, 0, 0])
  t.equal(wholeMessages(Buffer.concat([startup, sync]), false), 8, 'the start-up message alone first')
})

t.test('an unnamed statement parsed and not yet bound is pending', async (t) => {
  t.equal(leavesUnnamedStatement(Buffer.concat([parse(''), sync]), false), true, 'parse and describe, bind to come')
  t.equal(leavesUnnamedStatement(Buffer.concat([bind(''), sync]), true), false, 'bound in the next round trip')
  t.equal(leavesUnnamedStatement(Buffer.concat([parse(''), bind(''), sync]), false), false, 'parsed and bound at once')
  t.equal(leavesUnnamedStatement(Buffer.concat([parse('p1'), sync]), false), false, 'a named statement stays')
  t.equal(leavesUnnamedStatement(Buffer.concat([bind('p1'), sync]), true), true, 'binding a named one leaves the unnamed pending')
  t.equal(leavesUnnamedStatement(query, true), false, 'a simple query replaces it')
})

t.test('postgres.js through the bridge', async (t) => {
  const pglite = await PGlite.create()
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bridge-test-'))
  const errors: unknown[] = []
  const bridge = await serveOverSocket(pglite, path.join(dir, '.s.PGSQL.5432'), (err) => errors.push(err))
  const notified: string[] = []
  const connect = () => postgres({ host: dir, port: 5432, user: 'postgres', database: 'postgres', max: 1, onnotice: () => {}, ...{ onnotify: (_: string, payload: string) => notified.push(payload) } })
  t.teardown(async () => {
    await bridge.close()
    await pglite.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const first = connect()
  t.same([...await first`select ${41}::int + 1 as answer`], [{ answer: 42 }], 'a query with a parameter')
  await first`create table t (id int primary key)`
  await first.begin(async (tx) => { await tx`insert into t values (1)`; await tx`insert into t values (2)` })
  await t.rejects(first.begin(async (tx) => { await tx`insert into t values (3)`; await tx`insert into t values (1)` }), /duplicate key/, 'a failed transaction')
  t.same((await first`select id from t order by id`).map((r) => r.id), [1, 2], 'rolled back as a whole')
  const many = await Promise.all(Array.from({ length: 50 }, (_, i) => first`select ${i}::int as i`))
  t.same(many.map((r) => r[0]!.i), Array.from({ length: 50 }, (_, i) => i), 'pipelined queries each get their own answer')

  // The time PGlite spends on the connection's work is counted (the upkeep's pace: embedded-upkeep.ts).
  const busyBefore = bridge.busyMs()
  const sent = performance.now()
  await first`select count(*) from generate_series(1, 1000000)`
  const roundTrip = performance.now() - sent
  const busy = bridge.busyMs() - busyBefore
  t.ok(busy > roundTrip / 2 && busy <= roundTrip, `busy ${busy.toFixed(1)} ms of a ${roundTrip.toFixed(1)} ms round trip`)
  // The database's own upkeep is not the app's work, and is left out; what else runs between transactions is counted.
  const series = 'select count(*) from generate_series(1, 1000000)'
  const beforeUpkeep = bridge.busyMs()
  await bridge.whenIdle(() => pglite.query(series), { countAsBusy: false })
  t.equal(bridge.busyMs(), beforeUpkeep, 'upkeep: not counted')
  const started = performance.now()
  await bridge.whenIdle(() => pglite.query(series))
  const ran = performance.now() - started
  t.ok(bridge.busyMs() - beforeUpkeep > ran / 2, 'a counted task is counted')

  // Upkeep waits for the transaction under way: it would otherwise run inside it.
  const order: string[] = []
  let upkeep: Promise<void> | undefined
  await first.begin(async (tx) => {
    await tx`insert into t values (10)`
    upkeep = bridge.whenIdle(async () => { order.push(`upkeep sees ${(await pglite.query<{ n: number }>('select count(*)::int as n from t')).rows[0]!.n} rows`) })
    await tx`insert into t values (11)`
    order.push('commit')
  })
  await upkeep
  t.same(order, ['commit', 'upkeep sees 4 rows'], 'after the commit, and seeing it')

  await first`listen changes`
  await first.begin(async (tx) => { await tx`select pg_notify('changes', 'one')`; t.same(notified, [], 'not before the commit') })
  await first`select 1`
  t.same(notified, ['one'], 'the notification comes with the connection\'s replies after the commit')

  // A second connection waits for the first to close; what the first left open is undone.
  const second = connect()
  let secondAnswered = false
  const answer = second`select count(*)::int as n from t`.then((rows) => { secondAnswered = true; return rows[0]!.n })
  const reserved = await first.reserve()
  await reserved`begin`
  await reserved`insert into t values (99)`
  t.equal(secondAnswered, false, 'the second connection has not been served')
  await first.end({ timeout: 0 })
  t.equal(await answer, 4, 'served once the first closed; its open transaction was rolled back')
  t.same([...await second`select ${'fresh'}::text as s`], [{ s: 'fresh' }], 'statements work on the new connection')
  await second`select pg_notify('changes', 'two')`
  await second`select 1`
  t.same(notified, ['one', 'two'], 'LISTEN outlives the connection that took it out')

  // What drizzle sends unprepared is prepared (one round trip once described), in transactions too, which are counted.
  const prepared = preparedByDefault(second)
  const statements = async () => (await second`select statement from pg_prepared_statements`).map((r) => String(r.statement))
  const unprepared = (await statements()).length
  await prepared.client.unsafe('select $1::int + 1 as n', [1], { prepare: false })
  t.ok((await statements()).some((s) => s.includes('select $1::int + 1')), 'a statement asked for unprepared is prepared')
  let openInside = -1
  await prepared.client.begin(async (tx) => {
    openInside = prepared.transactionsOpen()
    await tx.unsafe('select $1::text as inside', ['x'], { prepare: false })
  })
  t.equal(openInside, 1, 'a transaction is counted while open')
  t.equal(prepared.transactionsOpen(), 0, 'and no longer after')
  t.ok((await statements()).some((s) => s.includes('select $1::text as inside')), 'the transaction\'s statement too')
  t.ok((await statements()).length > unprepared)
  // A batch's statement (its text grows with the batch) is not prepared, so that the connection keeps no text per size.
  const list = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}::int`).join(', ')
  await prepared.client.unsafe(`select array[${list(64)}] as small_batch`, Array.from({ length: 64 }, (_, i) => i), { prepare: false })
  await prepared.client.unsafe(`select array[${list(65)}] as big_batch`, Array.from({ length: 65 }, (_, i) => i), { prepare: false })
  t.ok((await statements()).some((s) => s.includes('small_batch')), 'a statement of 64 parameters is prepared')
  t.notOk((await statements()).some((s) => s.includes('big_batch')), 'one of 65 is not')
  await second.end()
  t.same(errors, [], 'no error reached the bridge')
})
