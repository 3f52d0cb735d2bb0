// The knobs of a branch generation as pages and /api send them, checked once here: how many paths (limit), the
// starting answers (inputs: an object, or its JSON text from a URL), and the date the runs are as of (runAsOf).
// Each refusal names its field.
import { DEFAULT_BRANCH_LIMIT, coerceInput, isDataType, type AdviceSetModel } from '../../engine/index.ts'
import { ValidationError } from '../errors.ts'

/** The most paths one generation may examine: 20,000 is about 4 s of work in the background on this hardware. */
export const MAX_BRANCH_LIMIT = 20_000
export { DEFAULT_BRANCH_LIMIT }

export function branchLimit(raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return DEFAULT_BRANCH_LIMIT
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isInteger(n) || n < 1 || n > MAX_BRANCH_LIMIT) throw new ValidationError('limit', `limit: must be a whole number from 1 to ${MAX_BRANCH_LIMIT}.`)
  return n
}

/** The date runs are as of (YYYY-MM-DD), as a moment at midnight UTC; absent → undefined (now). */
export function runAsOf(raw: unknown): { date: Date; text: string } | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined
  const text = typeof raw === 'string' ? raw.trim() : ''
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : undefined
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
    throw new ValidationError('runAsOf', 'runAsOf: must be a date written YYYY-MM-DD.')
  }
  return { date, text }
}

/**
 * Starting answers by variable name, from an object or its JSON text. Every name must be a variable of the set and
 * every answer one its data type accepts (coerced as a run will), so a typo is told, not silently ignored.
 */
export function startingAnswers(raw: unknown, model: AdviceSetModel): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === '') return {}
  let value = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch {
      throw new ValidationError('inputs', 'inputs: must be a JSON object of answers by variable name, like {"Age": 70}.')
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('inputs', 'inputs: must be an object of answers by variable name, like {"Age": 70}.')
  }
  const variables = new Map(model.entities.filter((entity) => entity.kind === 'variable').map((entity) => [entity.name, entity]))
  const answers: Record<string, unknown> = {}
  for (const [name, answer] of Object.entries(value)) {
    const entity = variables.get(name)
    if (!entity) throw new ValidationError('inputs', `inputs: this advice set has no variable named ${name}.`)
    if (entity.dataType !== undefined && isDataType(entity.dataType)) {
      const coerced = coerceInput(entity.dataType, answer, entity.options ? { options: entity.options } : undefined)
      if (!coerced.ok) throw new ValidationError('inputs', `inputs: ${name}: ${coerced.message}`)
    }
    answers[name] = answer
  }
  return answers
}
