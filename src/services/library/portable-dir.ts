// The directory form of an advice-set file (issue 28, the command-line tool's `export --dir`): the document split so
// that a git diff of one edited node is a few lines. `set.json` holds everything but the rules, with `rules` the rule
// keys in run order; `rules/<nn>-<slug>-<key>.json` holds one rule each (nodes in tree order); `files/…` the ZIP form's
// supplement files (written by the tool as they are). Every text is canonical (two spaces, a final newline), and
// joining the files gives back the document's text byte for byte. Pure: paths and texts in, texts out; the tool reads
// and writes the disk.
import type { AdviceSetDocument } from './portable-format.ts'
import { locate, parsePortableJson, pointerOf, segmentsOf } from './portable-json.ts'

export const DIR_SET_FILE = 'set.json'
export const DIR_RULES_FOLDER = 'rules/'

/** A directory that does not join into a document: the message names the file and the problem. */
export class PortableDirError extends Error {
  constructor(readonly file: string, problem: string) {
    super(`${file}: ${problem}`)
  }
}

const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/** A file-name-safe, readable form of a rule's name: lower case ASCII letters and digits between dashes. */
export function ruleSlug(name: string): string {
  const slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  return slug.slice(0, 40).replace(/-+$/, '') || 'rule'
}

/** `rules/03-retirement-plan-9f2c…json`: the position (so `ls` shows run order), the name, the key (which decides). */
export function ruleFileName(index: number, count: number, rule: { key: string; name: string }): string {
  const width = Math.max(2, String(count).length)
  return `${DIR_RULES_FOLDER}${String(index + 1).padStart(width, '0')}-${ruleSlug(rule.name)}-${rule.key}.json`
}

/**
 * The document's text (as exported: canonical) as the directory's text files by their path: set.json and one file per
 * rule. Throws a PortableFileError when the text is not JSON; anything not an object with a rules array of rules
 * with keys is refused too.
 */
export function splitDocumentText(text: string): Map<string, string> {
  const document = parsePortableJson(text)
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new PortableDirError(DIR_SET_FILE, 'the document is not a JSON object.')
  const rules = (document as { rules?: unknown }).rules
  if (!Array.isArray(rules)) throw new PortableDirError(DIR_SET_FILE, 'the document has no rules array.')
  const files = new Map<string, string>()
  const keys: string[] = []
  rules.forEach((rule: unknown, index) => {
    const { key, name } = (rule ?? {}) as { key?: unknown; name?: unknown }
    if (typeof key !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(key)) throw new PortableDirError(DIR_SET_FILE, `/rules/${index} has no key.`)
    if (keys.includes(key)) throw new PortableDirError(DIR_SET_FILE, `two rules have the key “${key}”.`)
    keys.push(key)
    files.set(ruleFileName(index, rules.length, { key, name: typeof name === 'string' ? name : '' }), jsonText(rule))
  })
  // The rules' place in set.json keeps the document's key order: `rules` where it was, holding the keys.
  const set: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(document)) set[k] = k === 'rules' ? keys : v
  return new Map([[DIR_SET_FILE, jsonText(set)], ...files])
}

/** The same split for a document value: its canonical text (documentText's, written the same way), split. */
export function splitDocument(document: AdviceSetDocument): Map<string, string> {
  return splitDocumentText(jsonText(document))
}

function parsed(file: string, text: string): unknown {
  try {
    return parsePortableJson(text)
  } catch (err) {
    throw new PortableDirError(file, err instanceof Error ? err.message.replace(/^file: /, '') : String(err))
  }
}

/**
 * The document's text from the directory's text files by their path (set.json, rules/*.json; other paths are not
 * looked at): set.json with each rule key replaced by its rule file's content. A rule file is found by the key it
 * holds, not by its name, so a renamed file still counts; a key without a file, a file whose key set.json does not
 * list, or two files with one key are refused naming the file.
 */
export function joinDocumentText(files: ReadonlyMap<string, string>): string {
  const setText = files.get(DIR_SET_FILE)
  if (setText === undefined) throw new PortableDirError(DIR_SET_FILE, 'missing: the directory has no set.json.')
  const set = parsed(DIR_SET_FILE, setText)
  if (set === null || typeof set !== 'object' || Array.isArray(set)) throw new PortableDirError(DIR_SET_FILE, 'is not a JSON object.')
  const order = (set as { rules?: unknown }).rules
  if (!Array.isArray(order) || order.some((k) => typeof k !== 'string')) throw new PortableDirError(DIR_SET_FILE, '“rules” must list the rule keys in order (an array of text).')
  if (new Set(order).size !== order.length) throw new PortableDirError(DIR_SET_FILE, '“rules” lists a key twice.')
  const byKey = new Map<string, { file: string; rule: unknown }>()
  for (const [file, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!file.startsWith(DIR_RULES_FOLDER) || !file.endsWith('.json') || file.slice(DIR_RULES_FOLDER.length).includes('/')) continue
    const rule = parsed(file, text)
    const key = (rule as { key?: unknown } | null)?.key
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule) || typeof key !== 'string') throw new PortableDirError(file, 'is not a rule: a JSON object with a "key".')
    const seen = byKey.get(key)
    if (seen) throw new PortableDirError(file, `holds the rule key “${key}”, as ${seen.file} does: keep one of them.`)
    if (!order.includes(key)) throw new PortableDirError(file, `holds the rule key “${key}”, which set.json’s “rules” does not list: add it there (in run order) or delete the file.`)
    byKey.set(key, { file, rule })
  }
  const rules = (order as string[]).map((key) => {
    const found = byKey.get(key)
    if (!found) throw new PortableDirError(DIR_SET_FILE, `lists the rule key “${key}”, but no file under rules/ holds it.`)
    return found.rule
  })
  const document: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(set)) document[k] = k === 'rules' ? rules : v
  return jsonText(document)
}

/**
 * Where a problem the server named at `pointer` of the joined document lies in the directory: the rule file and the
 * pointer and line inside it for `/rules/<n>/…`, set.json otherwise (line and column when the value is there).
 */
export function placeInDirectory(files: ReadonlyMap<string, string>, pointer: string): { file: string; pointer: string; line?: number; column?: number } {
  const segments = segmentsOf(pointer) ?? []
  let file = DIR_SET_FILE
  let inner = pointer
  if (segments[0] === 'rules' && segments.length >= 2) {
    const order = (parsed(DIR_SET_FILE, files.get(DIR_SET_FILE) ?? '{}') as { rules?: unknown }).rules
    const key = Array.isArray(order) ? order[Number(segments[1])] : undefined
    for (const [path, text] of files) {
      if (!path.startsWith(DIR_RULES_FOLDER) || typeof key !== 'string') continue
      if ((parsed(path, text) as { key?: unknown }).key === key) { file = path; inner = pointerOf(segments.slice(2)); break }
    }
  }
  const text = files.get(file) ?? ''
  const innerSegments = segmentsOf(inner) ?? []
  for (let n = innerSegments.length; n >= 0; n--) {
    const at = locate(text, pointerOf(innerSegments.slice(0, n)))
    if (at) return { file, pointer: inner, ...at }
  }
  return { file, pointer: inner }
}
