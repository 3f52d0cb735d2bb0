// The Advice API's response body as JSON text. Most of a full response is the same on every request for a version:
// each advice node's ids, tags and sources, each question's ids and variable, each variable's name and type. Those
// pieces are serialized once per compiled version and only the run's values are serialized per request; building
// the `data` object and stringifying it whole cost about as much as the run itself. The text is the same as
// JSON.stringify({ data: adviceData(...) }) would give (test/unit/server/response-json.test.ts compares them); fieldsets and
// filters, which change which members are written, take that general path.
import type { AdviceItem, AnsweredInput, CompiledAdviceSet, EngineResult, VariableSlot } from '../../engine/index.ts'
import { FULL_SHAPE, type ResponseShape } from './fields.ts'
import { adviceData, adviceSetInfo, focusView, variableView } from './response.ts'
import type { ServedVersion } from '../publishing/versions.ts'

/** Serialized once: an item's members up to its rendered texts, kept with what they were made from. */
interface ItemHead {
  ruleId: string
  tags: AdviceItem['tags']
  sources: AdviceItem['sources']
  text: string
}

interface InputHead {
  ruleId: string
  variable: string
  text: string
}

/** What a variable's entry starts and ends with around its value and formatted value. */
interface VariableFrame {
  open: string
  close: string
}

interface VersionFragments {
  /** A variable named like an array index ("12") is moved first by an object's key order; such sets take the general path. */
  general: boolean
  items: Map<string, ItemHead>
  inputs: Map<string, InputHead>
  variables: Array<VariableFrame | undefined>
}

const fragmentsByCompiled = new WeakMap<CompiledAdviceSet, VersionFragments>()
const adviceSetByVersion = new WeakMap<ServedVersion, string>()

/** The response body `{"data":{...}}` for one run. */
export function adviceJson(result: EngineResult, version: ServedVersion, compiled: CompiledAdviceSet, shape: ResponseShape): string {
  let fragments = fragmentsByCompiled.get(compiled)
  if (!fragments) {
    const general = compiled.variables.some((slot) => isArrayIndex(slot.name))
    fragmentsByCompiled.set(compiled, fragments = { general, items: new Map(), inputs: new Map(), variables: [] })
  }
  if (shape !== FULL_SHAPE || fragments.general) return JSON.stringify({ data: adviceData(result, version, compiled, shape) })
  let adviceSet = adviceSetByVersion.get(version)
  if (adviceSet === undefined) adviceSetByVersion.set(version, adviceSet = JSON.stringify(adviceSetInfo(version)))

  // Pieces joined once at the end: a string built by `+=` is a rope of small pieces, and flattening that on the
  // way to the socket cost more than serializing.
  const out: string[] = [`{"data":{"adviceSet":${adviceSet},"inputRequests":[`]
  const answers = result.inputRequests
  for (let i = 0; i < answers.length; i++) {
    if (i > 0) out.push(',')
    writeInput(out, fragments.inputs, answers[i]!)
  }
  out.push('],"currentFocus":', result.currentFocus ? JSON.stringify(focusView(result.currentFocus)) : 'null', ',"advice":')
  writeItems(out, fragments.items, result.advice)
  out.push(',"assumptions":')
  writeItems(out, fragments.items, result.assumptions)
  out.push(',"examples":')
  writeItems(out, fragments.items, result.examples)
  out.push(',"sources":', JSON.stringify(result.sources), ',"errors":', JSON.stringify(result.errors), ',"variables":{')
  let first = true
  result.forEachVariable((slot, value, valueFormatted, index) => {
    const frame = (fragments.variables[index] ??= variableFrame(slot))
    out.push(first ? frame.open : `,${frame.open}`, jsonOf(value), ',"valueFormatted":', jsonOf(valueFormatted), frame.close)
    first = false
  })
  out.push('}}}')
  return out.join('')
}

function writeInput(out: string[], heads: Map<string, InputHead>, answer: AnsweredInput): void {
  let head = heads.get(answer.nodeId)
  if (head === undefined || head.ruleId !== answer.ruleId || head.variable !== answer.variable) {
    const { nodeId, ruleId, variable } = answer
    head = { ruleId, variable, text: `${JSON.stringify({ nodeId, ruleId, variable }).slice(0, -1)},"question":` }
    heads.set(nodeId, head)
  }
  out.push(head.text, jsonOf(answer.question), ',"value":', jsonOf(answer.value), ',"valueFormatted":', jsonOf(answer.valueFormatted), '}')
}

function writeItems(out: string[], heads: Map<string, ItemHead>, items: readonly AdviceItem[]): void {
  out.push('[')
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.push(',')
    writeItem(out, heads, items[i]!)
  }
  out.push(']')
}

function writeItem(out: string[], heads: Map<string, ItemHead>, item: AdviceItem): void {
  let head = heads.get(item.nodeId)
  if (head === undefined || head.ruleId !== item.ruleId || head.tags !== item.tags || head.sources !== item.sources) {
    const { nodeId, ruleId, tags, sources } = item
    head = { ruleId, tags, sources, text: JSON.stringify({ nodeId, ruleId, tags, sources }).slice(0, -1) }
    heads.set(nodeId, head)
  }
  out.push(head.text)
  if (item.headline !== undefined) out.push(',"headline":', jsonOf(item.headline))
  if (item.text !== undefined) out.push(',"text":', jsonOf(item.text))
  if (item.customHeadline !== undefined) out.push(',"customHeadline":', jsonOf(item.customHeadline))
  out.push('}')
}

const PLACEHOLDER_HEAD = '{"value":0,"valueFormatted":""'

/** The entry response.ts's variableView makes, split around its value and formatted value. */
function variableFrame(slot: VariableSlot): VariableFrame {
  const entry = JSON.stringify(variableView(0, '', slot))
  return { open: `${JSON.stringify(slot.name)}:{"value":`, close: entry.slice(PLACEHOLDER_HEAD.length) }
}

/** Characters JSON.stringify would escape in a string (surrogates: it escapes lone ones; those take its path too). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

/**
 * JSON.stringify's text for a value, with the common cases written directly: for the short strings and numbers a
 * response is made of, a call into JSON.stringify costs about twice the test for characters to escape.
 */
function jsonOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
    case 'boolean':
      return value ? 'true' : 'false'
    default:
      return JSON.stringify(value)
  }
}

function isArrayIndex(name: string): boolean {
  const n = Number(name)
  return String(n >>> 0) === name && n !== 2 ** 32 - 1
}
