// bench:api's split of an Advice API request by stage (scripts/bench/stage-split.ts): each sample goes to the nearest
// entry function on its stack, the rest by its own function; idle time is no one's. And every entry function named
// there still exists, so a rename cannot move a stage's time into "the rest" unnoticed.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { ADVICE_STAGES, splitProfile } from '../../../scripts/bench/stage-split.ts'

const frame = (functionName: string, url: string) => ({ functionName, url })

t.test('samples go to the nearest entry function on their stack', async (t) => {
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', ''), children: [2, 3, 4, 8] },
      { id: 2, callFrame: frame('(idle)', '') },
      { id: 3, callFrame: frame('routeHandler', 'file:///app/node_modules/fastify/lib/route.js'), children: [5] },
      { id: 5, callFrame: frame('evaluate', 'file:///app/src/engine/tree/evaluate.ts'), children: [6] },
      { id: 6, callFrame: frame('adviceJson', 'file:///app/src/services/delivery/response-json.ts'), children: [7] },
      // An engine helper under the response stage belongs to the response (nearest entry), not to the engine.
      { id: 7, callFrame: frame('formatNumber', 'file:///app/src/engine/format/number.ts') },
      { id: 4, callFrame: frame('', 'file:///app/src/http/api/advice-partner.ts'), children: [9] },
      { id: 9, callFrame: frame('onSendEnd', 'file:///app/node_modules/fastify/lib/reply.js'), children: [10] },
      { id: 10, callFrame: frame('writev', '') },
      { id: 8, callFrame: frame('(garbage collector)', '') },
    ],
    // 2 requests: engine 1 sample, response 2, the send 2 (under the onSend hook, but send is nearer), the hook's own 1,
    // route handler 1, GC 1, idle 3.
    samples: [5, 6, 7, 10, 10, 4, 3, 8, 2, 2, 2],
    timeDeltas: [0, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
    startTime: 0, endTime: 110,
  }
  const split = splitProfile(profile, 2)
  const micros = (name: string) => split.stages.find((stage) => stage.name.startsWith(name))!.micros
  t.equal(micros('engine'), 5)
  t.equal(micros('response building'), 10)
  t.equal(micros('send'), 10)
  t.equal(micros('headers'), 5)
  t.same(split.rest, [{ name: 'routeHandler fastify/lib/route.js', micros: 5 }, { name: '(garbage collector)', micros: 5 }].sort((a, b) => b.micros - a.micros))
  t.equal(split.restMicros, 10)
  // The last sample stands for no time (it has no next delta); idle samples count nowhere.
  t.equal(split.sampledMicros, 40)
  t.ok(split.missing.includes('key check'), 'a stage with no sample is named')
  t.notOk(split.missing.some((name) => name.startsWith('engine')))
})

t.test('every entry function the split names exists where it says', async (t) => {
  const require = createRequire(import.meta.url)
  for (const stage of ADVICE_STAGES) {
    for (const entry of stage.entries) {
      const file = entry.file.startsWith('src/') ? new URL(`../../../${entry.file}`, import.meta.url) : require.resolve(entry.file.replace(/\.js$/, ''))
      const source = readFileSync(file, 'utf8')
      for (const name of entry.functions ?? []) {
        if (name === '') continue
        t.match(source, new RegExp(`(function ${name}\\b|\\b${name}\\s*\\([^)]*\\)\\s*[:{]|\\.${name}\\s*=\\s*function\\b)`), `${stage.name}: ${name} in ${entry.file}`)
      }
    }
  }
})
