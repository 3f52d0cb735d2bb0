// The cases of advice-cli.test.ts (which says when they run). Issue 28, "Promotion between instances": the command-line
// tool (scripts/advice-cli.ts, run as a child process the way `npm run advice` runs it) against two running instances
// on 127.0.0.1, each with its own personal access tokens made through the API. Instance A is on PGlite; instance B is
// on PostgreSQL in the PostgreSQL run (TEST_DRIVER=postgres with TEST_DATABASE_URL) and on a second PGlite database
// otherwise. Export from A, import into B, export from B: the same bytes; diff of the two prints nothing; one edited
// node is exactly one line of diff; `export --dir` and `import <dir>` round trip; an export-only token cannot import.
import t from 'tap'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { testDriver } from '../../helpers/database.ts'
import { startServer, type TestServer } from '../../helpers/server.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { retirementSet } from '../../helpers/scenarios.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const CLI = path.join(ROOT, 'scripts/advice-cli.ts')
/** The repository itself (`npm test` runs a compiled mirror, .test-build/, where the script is a link to its source). */
const REPO = path.resolve(path.dirname(realpathSync(CLI)), '..')
/** tsx as the loader, by its resolved address: the tool runs in a scratch folder, not the repository. */
const TSX = import.meta.resolve('tsx')
/**
 * Under `npm test` the tool's compiled twin (.test-build/scripts/advice-cli.js, the same source) runs with plain node:
 * a second a run less than through tsx, over twenty runs. The launcher test below still goes through tsx.
 */
const COMPILED_CLI = CLI.replace(/\.ts$/, '.js')
const CLI_ARGS = existsSync(COMPILED_CLI) ? [COMPILED_CLI] : ['--import', TSX, CLI]

// Each tool run is a node process with tsx: seconds on a busy machine.
t.setTimeout(300_000)
const [a, b] = await Promise.all([startServer({ driver: 'pglite' }), startServer()]) as [TestServer, TestServer]
const work = mkdtempSync(path.join(os.tmpdir(), 'advice-cli-'))
t.teardown(async () => {
  await Promise.all([a.close(), b.close()])
  rmSync(work, { recursive: true, force: true })
})
t.comment(`instance A on PGlite, instance B on ${testDriver() === 'postgres' ? 'PostgreSQL' : 'PGlite (set TEST_DATABASE_URL for PostgreSQL)'}`)

/** An author of a new team on `server`, signed in, and personal access tokens made with the API. */
async function teamOn(server: TestServer) {
  const ownerId = await createOwner(server.db, { name: 'Acme' })
  const user = await createUser(server.db, { ownerId, role: 'author' })
  const agent = await signedInAgent(server.app, user)
  const token = async (scopes: string[]) => {
    const res = await agent.api('POST', '/api/user/tokens', { name: `cli ${scopes.join('+')}`, scopes })
    if (res.statusCode !== 201) throw new Error(`token not made: ${res.statusCode} ${res.body}`)
    return res.json().data.secret as string
  }
  return { ownerId, agent, both: await token(['export', 'import']), exportOnly: await token(['export']) }
}

const teamA = await teamOn(a)
const teamB = await teamOn(b)
const { set } = await retirementSet(a.db, teamA.ownerId, { name: 'Acme pensions' })
for (const [name, inputs] of [['Retired at 70', { Age: 70 }], ['Young and bold', { Age: 30, Risk: 'high' }]] as const) {
  const res = await teamA.agent.api('POST', '/api/advicescenario', { adviceSetId: set.id, name, inputs })
  if (res.statusCode !== 201) throw new Error(`scenario not made: ${res.statusCode} ${res.body}`)
}

interface Run { code: number; stdout: string; stderr: string }

/** The tool with `args`, talking to `server` with `token` (by the environment, as a script would set them). */
function cli(args: string[], opts: { server?: TestServer; token?: string; stdin?: string } = {}): Promise<Run> {
  const env: Record<string, string> = { ...process.env as Record<string, string>, NODE_OPTIONS: '' }
  delete env.ADVICE_URL
  delete env.ADVICE_TOKEN
  if (opts.server) env.ADVICE_URL = opts.server.url
  if (opts.token) env.ADVICE_TOKEN = opts.token
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [...CLI_ARGS, ...args], { cwd: work, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    })
    child.stdin?.end(opts.stdin ?? '')
  })
}

const file = (name: string) => path.join(work, name)
let importedId = ''

t.test('export from A, import into B, export from B: the same bytes', async (t) => {
  const exported = await cli(['export', String(set.id), '--out', file('a.json')], { server: a, token: teamA.both })
  t.equal(exported.code, 0, exported.stderr)
  t.match(exported.stdout, /^Wrote .*a\.json \(\d+ bytes\)/)
  const imported = await cli(['import', file('a.json')], { server: b, token: teamB.both })
  t.equal(imported.code, 0, imported.stderr)
  t.match(imported.stdout, /^Import as a new set “Acme pensions”\n {2}rules: +1 to create \(“Plan”\), 0 to update, 0 to delete\n {2}nodes: +9 to create, 0 kept, 0 to delete/)
  t.match(imported.stdout, /dictionary: +3 to create \(“Age”, “Risk”, “Score”\)/)
  t.match(imported.stdout, /scenarios: +2 to create \(“Retired at 70”, “Young and bold”\)/)
  const id = /Imported: set (\d+) “Acme pensions” http:\/\/127\.0\.0\.1:\d+\/\S+/.exec(imported.stdout)?.[1]
  t.ok(id, 'the new set, with its address on B')
  importedId = id!
  t.match(imported.stdout, /Scenarios: 2 run: 2 pass, 0 fail, 0 error/, 'the scenarios pass on B')

  const again = await cli(['export', importedId, '--out', file('b.json')], { server: b, token: teamB.exportOnly })
  t.equal(again.code, 0, again.stderr)
  t.ok(readFileSync(file('a.json')).equals(readFileSync(file('b.json'))), 'identical bytes')
  const stdout = await cli(['export', importedId], { server: b, token: teamB.exportOnly })
  t.equal(stdout.stdout, readFileSync(file('b.json'), 'utf8'), 'without --out: the document on standard output')
})

t.test('diff: nothing between the two files, nor against the live set; one edited node is one line', async (t) => {
  const equal = await cli(['diff', file('a.json'), file('b.json')])
  t.same(equal, { code: 0, stdout: '', stderr: '' }, 'equal: no output, exit 0')
  const live = await cli(['diff', file('a.json'), `set:${importedId}`], { server: b, token: teamB.exportOnly })
  t.same(live, { code: 0, stdout: '', stderr: '' }, 'the file and the live set on B are equal')

  const doc = JSON.parse(readFileSync(file('b.json'), 'utf8'))
  const retire = doc.rules[0].nodes[2].children[0]
  t.equal(retire.headline, 'Retire')
  retire.headline = 'Retire now'
  writeFileSync(file('edited.json'), `${JSON.stringify(doc, null, 2)}\n`)
  const changed = await cli(['diff', file('b.json'), file('edited.json')])
  t.equal(changed.code, 1, 'different: exit 1')
  t.equal(changed.stdout, `node changed: advice “Retire now” (node ${retire.key}) in rule “Plan”: headline: "Retire" → "Retire now"\n`, 'exactly that node’s change')

  const missing = await cli(['diff', file('b.json'), file('nope.json')])
  t.equal(missing.code, 2, 'an error: exit 2')
  t.match(missing.stderr, /nope\.json: no such file or directory/)
  const piped = await cli(['diff', file('b.json'), '-'], { stdin: readFileSync(file('edited.json'), 'utf8') })
  t.equal(piped.stdout, changed.stdout, '- reads standard input')
  const invalid = await cli(['diff', file('b.json'), '-'], { stdin: '{\n  "format": "advice-set@1"\n}\n' })
  t.equal(invalid.code, 2, 'not a whole document: exit 2')
  t.match(invalid.stderr, /- is not an advice-set@1 document:\n {2}\/ \(line 1, column 1\): /, 'each problem with its place')
})

t.test('export --dir writes one file per rule; import and diff read the directory back', async (t) => {
  const dir = file('set-dir')
  const exported = await cli(['export', importedId, '--dir', dir], { server: b, token: teamB.exportOnly })
  t.equal(exported.code, 0, exported.stderr)
  t.match(exported.stdout, /Wrote .*set-dir: set\.json, 1 rule file, 0 supplement files/)
  const rules = readdirSync(path.join(dir, 'rules'))
  t.equal(rules.length, 1)
  t.match(rules[0], /^01-plan-[A-Za-z0-9_-]+\.json$/)
  t.same(JSON.parse(readFileSync(path.join(dir, 'set.json'), 'utf8')).rules, [JSON.parse(readFileSync(file('b.json'), 'utf8')).rules[0].key])
  t.same(await cli(['diff', dir, file('b.json')]), { code: 0, stdout: '', stderr: '' }, 'the directory is the same document')

  const into = await cli(['import', dir, '--into', importedId, '--dry-run'], { server: b, token: teamB.both })
  t.equal(into.code, 0, into.stderr)
  t.match(into.stdout, new RegExp(`^Import into set ${importedId} “Acme pensions”\\n {2}rules: +0 to create, 1 to update \\(“Plan”\\), 0 to delete\\n {2}nodes: +0 to create, 9 kept, 0 to delete`))
  t.match(into.stdout, /Dry run: nothing was written\.\n$/)
  const imported = await cli(['import', dir], { server: b, token: teamB.both })
  t.equal(imported.code, 0, imported.stderr)
  t.match(imported.stdout, /Imported: set \d+ “Acme pensions”[^\n]*\nScenarios: 2 run: 2 pass/)

  // A hand edit that breaks the file: the problem is named in the rule's own file, with its line and column.
  const ruleFile = path.join(dir, 'rules', rules[0]!)
  writeFileSync(ruleFile, readFileSync(ruleFile, 'utf8').replace('"type": "advice"', '"type": "question"'))
  const refused = await cli(['import', dir], { server: b, token: teamB.both })
  t.equal(refused.code, 1, 'refused: exit 1')
  t.match(refused.stdout, /^Refused: /)
  const at = new RegExp(`${rules[0]!.replace(/[.]/g, '\\.')} /nodes/1/type \\(line (\\d+), column (\\d+)\\): must be one of`).exec(refused.stdout)
  t.ok(at, `the pointer inside the rule file:\n${refused.stdout}`)
  t.match(readFileSync(ruleFile, 'utf8').split('\n')[Number(at?.[1]) - 1], /"type": "question"/, 'and its line')
  t.match(refused.stdout, /Nothing was written\.\n$/)
})

t.test('an export-only token cannot import; a bad token and a wrong address are named', async (t) => {
  const refused = await cli(['import', file('a.json')], { server: b, token: teamB.exportOnly })
  t.equal(refused.code, 1)
  t.match(refused.stderr, /import: 403 .*import/, 'the message names the scope')
  const bad = await cli(['export', importedId], { server: b, token: 'ast_00000000_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' })
  t.equal(bad.code, 1)
  t.match(bad.stderr, /export of set \d+: 401 /)
  const noToken = await cli(['export', importedId], { server: b })
  t.equal(noToken.code, 2)
  t.match(noToken.stderr, /--token/)
  const otherTeam = await cli(['export', String(set.id)], { server: a, token: (await teamOn(a)).exportOnly })
  t.equal(otherTeam.code, 1)
  t.match(otherTeam.stderr, /404/, 'another team’s set is not found')
})

t.test('--help for the tool and each command, also through the npx launcher', async (t) => {
  const main = await cli(['--help'])
  t.equal(main.code, 0)
  t.match(main.stdout, /export <setId>[\s\S]*import <file\|dir>[\s\S]*diff <a> <b>/)
  for (const command of ['export', 'import', 'diff']) {
    const res = await cli([command, '--help'])
    t.equal(res.code, 0)
    t.match(res.stdout, new RegExp(`^Usage: ${command} `), `${command} --help`)
  }
  const unknown = await cli(['push'])
  t.equal(unknown.code, 2)
  const launcher = await new Promise<Run>((resolve) => {
    execFile(process.execPath, [path.join(REPO, 'bin/advice-studio.js'), 'diff', '--help'], { cwd: work }, (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }))
  })
  t.equal(launcher.code, 0, launcher.stderr)
  t.match(launcher.stdout, /^Usage: diff <a> <b>/)
})
