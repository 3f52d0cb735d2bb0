// Which dictionary names a node refers to, and where an entry is used, without reading every node of a team: the names
// are kept beside each node (db/queries/node-references.ts) and trusted while the node's fields are those they were
// read from. Readers take the trusted nodes that refer to a name from an index, and parse the stale ones again; the
// filler stores the names of stale nodes in the background, so that after an upgrade or a copy few stay stale.
import { createHash } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import {
  keptReferenceCounts, nodesWithKeys, setReferenceCounts, staleNodeFields, staleNodesIn, storeNodeReferences, type ReferenceCount, type ReferenceFields, type ReferenceScope, type ScopedNode,
} from '../../db/queries/node-references.ts'
import type { OwnedNode } from '../../db/queries/rule-nodes.ts'
import { EngineError, parseAssignment, parseExpression, references, templateTags } from '../../engine/index.ts'
import { yieldToEventLoop } from '../operations/event-loop.ts'

/** Nodes read at once: a batch of stale nodes parsed, or of trusted ones listed. */
const BATCH = 1_000
/**
 * Below this many uses a name's nodes are read from the names' index and sorted (each batch reads them all); from it on,
 * by walking the nodes in id order, where they are dense enough to fill a batch soon (nodesWithKeys).
 */
const FEW_USES = 10_000

/** Adds the `kind:name` keys of the names an expression or template refers to. */
function addKeys(keys: Set<string>, refs: { variables: string[]; formulas: string[]; bare: string[] }): void {
  refs.variables.forEach((n) => keys.add(`variable:${n}`))
  refs.formulas.forEach((n) => keys.add(`formula:${n}`))
  refs.bare.forEach((n) => keys.add(`bare:${n}`))
}

function addTemplateKeys(keys: Set<string>, text: string): void {
  templateTags(text).forEach((tag) => keys.add(`${tag.kind}:${tag.name}`))
}

/**
 * The keys of what an expression refers to (`variable:X`, `formula:X`, or `bare:X` for names written without tags),
 * read as `mode` (a node's condition, value or assignment; a formula's value). As the rename does, an unparsable
 * expression still refers to the entries it names in tags.
 */
export function expressionReferenceKeys(source: string, mode: 'condition' | 'value' | 'assignment' = 'value'): Set<string> {
  const keys = new Set<string>()
  try {
    if (mode === 'assignment') {
      const assignment = parseAssignment(source)
      keys.add(`variable:${assignment.target}`)
      addKeys(keys, references(assignment.value))
    } else addKeys(keys, references(parseExpression(source, { mode })))
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    addTemplateKeys(keys, source)
  }
  return keys
}

/** The keys of what a node refers to: its expression, the templates of its texts, and the variable it sets or asks. */
export function nodeReferenceKeys(node: Omit<ReferenceFields, 'id'>): Set<string> {
  const mode = node.type === 'variableAssignment' ? 'assignment' : node.type === 'condition' ? 'condition' : 'value'
  const keys = node.expression ? expressionReferenceKeys(node.expression, mode) : new Set<string>()
  for (const text of [node.headline, node.text, node.question]) if (text) addTemplateKeys(keys, text)
  if (node.variable) keys.add(`${node.type === 'formula' ? 'formula' : 'variable'}:${node.variable}`)
  return keys
}

/** The hash of the fields the keys are read from, as migration 0041's rule_node_ref_hash computes it in SQL. */
export function nodeFieldsHash(node: Omit<ReferenceFields, 'id'>): string {
  const fields = [node.type, node.expression, node.variable, node.headline, node.text, node.question]
  return createHash('md5').update(fields.map((f) => f ?? '\u001e').join('\u001f'), 'utf8').digest('hex')
}

/** The names to write with a node's fields, so that an edit or a new node is trusted at once (no second write). */
export function referencesOf(node: Omit<ReferenceFields, 'id'>): { refKeys: string[]; refHash: string } {
  return { refKeys: [...nodeReferenceKeys(node)].sort(), refHash: nodeFieldsHash(node) }
}

/**
 * Fills in every stale node, a batch at a time, serving the requests waiting between batches; how many it filled. A
 * node whose fields the parser fails on (not a syntax error, which it reads as text) stays stale and is passed to
 * `unreadable`: readers meet the same failure, and the nodes after it are filled in all the same.
 */
export async function fillAllNodeReferences(db: Db, unreadable: (id: number, err: unknown) => void = () => {}): Promise<number> {
  let filled = 0
  for await (const stale of inBatches((afterId) => staleNodeFields(db, { afterId, limit: BATCH }))) {
    const rows: Array<{ id: number; keys: string[]; hash: string }> = []
    for (const node of stale) {
      try {
        const { refKeys, refHash } = referencesOf(node)
        rows.push({ id: node.id, keys: refKeys, hash: refHash })
      } catch (err) {
        unreadable(node.id, err)
      }
    }
    await storeNodeReferences(db, rows)
    filled += rows.length
    await yieldToEventLoop()
  }
  return filled
}

/** The rows of a read paged by id, a batch at a time, until a batch comes back short of BATCH. */
async function* inBatches<T extends { id: number }>(read: (afterId: number) => Promise<T[]>): AsyncGenerator<T[]> {
  for (let afterId = 0; ;) {
    const rows = await read(afterId)
    yield rows
    if (rows.length < BATCH) return
    afterId = rows[rows.length - 1]!.id
  }
}

/**
 * The server's filler: once started, and then every `everyMs`, it fills in the nodes that writes left stale. Readers
 * never wait for it (they parse stale nodes themselves); it keeps them from having to.
 */
export class NodeReferencesFiller {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<unknown> = Promise.resolve()
  private stopped = false

  /** Nodes reported unreadable already: each is reported once, not at every pass. */
  private readonly reported = new Set<number>()

  constructor(private readonly db: Db, private readonly onError: (err: unknown, nodeId?: number) => void, private readonly everyMs = 5_000) {}

  start(): void {
    this.stopped = false
    this.pass()
  }

  private pass(): void {
    const unreadable = (id: number, err: unknown) => {
      if (this.reported.has(id)) return
      this.reported.add(id)
      this.onError(err, id)
    }
    this.running = fillAllNodeReferences(this.db, unreadable).catch((err: unknown) => this.onError(err)).finally(() => {
      if (!this.stopped) this.timer = setTimeout(() => this.pass(), this.everyMs).unref()
    })
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.running
  }
}

/**
 * Every node in scope that refers to any of `keys`, in id order, a batch at a time: nodes by the names kept beside them
 * (from the index) while they hold, else (stale: edited since) by their fields parsed again, and every stale node too.
 * The stale nodes are read first: one the filler fills in meanwhile then comes from both reads, and is taken once.
 * `visit` returns false to stop; `expected` says how many it will likely take, so that no more are read; `afterId`
 * starts past a node already seen (a page of uses).
 */
export async function eachReferringNode(
  db: Db, keys: readonly [string, string], scope: ReferenceScope, visit: (node: OwnedNode) => boolean,
  { expected = BATCH, afterId: start = 0 }: { expected?: number; afterId?: number } = {},
): Promise<void> {
  const wanted = new Set(keys)
  // The kept uses of the first key (its kind and name, which counts the bare name too) in the scope's owners: an
  // upper bound of what the index gives, enough to choose how to read it.
  const kept = await keptReferenceCounts(db, [keys[0]], scope.ownerIds)
  const few = kept.reduce((sum, c) => sum + c.uses, 0) < FEW_USES
  const size = Math.max(1, Math.min(BATCH, expected))
  let afterId = start
  for (;;) {
    const stale = await staleNodesIn(db, scope, { afterId, limit: size })
    const keyed = await nodesWithKeys(db, keys, scope, { afterId, limit: size, few })
    const byId = new Map<number, ScopedNode>()
    for (const node of [...stale, ...keyed]) if (!byId.has(node.id)) byId.set(node.id, node)
    // Past the last id both reads reached, one of them may have more that the other did not read.
    const reached = Math.min(...[stale, keyed].map((rows) => (rows.length < size ? Infinity : rows[rows.length - 1]!.id)))
    const batch = [...byId.values()].filter((node) => node.id <= reached).sort((a, b) => a.id - b.id)
    for (const node of batch) {
      const refers = [...(node.stale ? nodeReferenceKeys(node) : node.refKeys ?? [])].some((k) => wanted.has(k))
      if (refers && !visit(node)) return
    }
    if (reached === Infinity) return
    afterId = reached
  }
}

/** An entry's two keys (its kind and name; its name written bare), and the set it is limited to, if any. */
export interface ReferenceTarget { keys: readonly [string, string]; adviceSetId: number | null }

/**
 * Per target, owner (and set, for a target limited to one, and for stale nodes): how many nodes in scope refer to it.
 * Trusted nodes are counted by the database (kept per owner, or counted in the one set), stale ones parsed here.
 */
export async function countReferences(db: Db, targets: readonly ReferenceTarget[], scope: ReferenceScope): Promise<ReferenceCount[]> {
  const ownerWide = targets.flatMap((t, index) => (t.adviceSetId === null ? [{ index, key: t.keys[0] }] : []))
  const inOneSet = targets.flatMap((t, index) => (t.adviceSetId === null ? [] : [{ index, adviceSetId: t.adviceSetId, keys: t.keys }]))
  const [kept, inSets] = await Promise.all([
    keptReferenceCounts(db, ownerWide.map((t) => t.key), scope.ownerIds),
    setReferenceCounts(db, inOneSet),
  ])
  // The kept counts are read for the scope's owners; a set's count names the set's owner, which may be out of scope.
  const counts = [
    ...kept.map((c) => ({ ...c, target: ownerWide[c.target]!.index })),
    ...inSets.filter((c) => scope.ownerIds === undefined || scope.ownerIds.includes(c.ownerId)).map((c) => ({ ...c, target: inOneSet[c.target]!.index })),
  ]
  // Two reads: a node the filler fills in between them is counted twice or not at all. Only while the filler works
  // through many nodes (after an upgrade or a big copy) can a count be off, by the nodes of that moment.
  const staleCounts = new Map<string, ReferenceCount>()
  for await (const rows of inBatches((afterId) => staleNodesIn(db, scope, { afterId, limit: BATCH }))) {
    for (const node of rows) {
      const keys = nodeReferenceKeys(node)
      targets.forEach((target, index) => {
        if (!target.keys.some((key) => keys.has(key)) || (target.adviceSetId !== null && target.adviceSetId !== node.adviceSetId)) return
        const id = `${index}:${node.adviceSetId}`
        const count = staleCounts.get(id) ?? { target: index, ownerId: node.ownerId, adviceSetId: node.adviceSetId, uses: 0 }
        count.uses += 1
        staleCounts.set(id, count)
      })
    }
  }
  return [...counts, ...staleCounts.values()]
}
