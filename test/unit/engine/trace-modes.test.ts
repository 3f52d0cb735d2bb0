// Traces for branch generation: 'visits' (no timing) and traceOnly (only some nodes) give the same visits and values
// as a full trace, and the run's outcome is unchanged by how it is traced.
import t from 'tap'
import { compileAdviceSet, evaluate } from '../../../src/engine/index.ts'
import { loan } from '../../fixtures/engine/loan.ts'

const NOW = new Date('2026-01-15T00:00:00Z')
const compiled = compileAdviceSet(loan)
const inputs = { Age: 70, Income: 120000, Employed: true, Region: 'North', Rate: 6 }
const strip = (trace: Array<{ nodeId: string; value: unknown }>) => trace.map(({ nodeId, value }) => ({ nodeId, value }))

t.test('visits: the nodes and values of a timed trace, durations 0', async (t) => {
  const timed = evaluate(compiled, inputs, { trace: true, now: NOW, render: false })
  const visits = evaluate(compiled, inputs, { trace: 'visits', now: NOW, render: false })
  t.same(strip(visits.trace!), strip(timed.trace!))
  t.ok(visits.trace!.every((entry) => entry.durationNs === 0))
  t.same(visits.advice.map((item) => item.nodeId), timed.advice.map((item) => item.nodeId))
})

t.test('traceOnly: just those nodes, in order, with their values; the outcome is the same', async (t) => {
  const only = new Set(['c-high', 'c-high-employed', 'a-prime', 'a-always'])
  const full = evaluate(compiled, inputs, { trace: 'visits', now: NOW, render: false })
  const some = evaluate(compiled, inputs, { trace: 'visits', traceOnly: only, now: NOW, render: false })
  t.same(strip(some.trace!), strip(full.trace!).filter((entry) => only.has(entry.nodeId)))
  t.same(some.advice, full.advice)
  t.same(some.variables, full.variables)
  const untraced = evaluate(compiled, inputs, { now: NOW, render: false })
  t.same(some.advice, untraced.advice)
  const timedSome = evaluate(compiled, inputs, { trace: true, traceOnly: only, now: NOW, render: false })
  t.same(strip(timedSome.trace!), strip(some.trace!), 'timed and filtered works too')
})
