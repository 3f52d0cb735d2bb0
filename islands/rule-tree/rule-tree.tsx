// The rule tree editor (issue 5): a WAI-ARIA tree of the rule's nodes with keyboard and pointer paths for adding,
// editing, moving, copying and deleting nodes, live checks while typing, whole-set checks after each change, and
// per-node comments. State lives here; the pure rules are in tree.ts, moves.ts, edits.ts, keyboard.ts and the checks.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { FocusEvent, KeyboardEvent, MouseEvent } from 'react'
import type { CheckIssue } from '../../src/engine/checks/index.ts'
import { ENTITY_TYPES, type NodeType } from '../../src/engine/entity-types.ts'
import { confirmDialog } from '../shared/dialogs.ts'
import { notify } from '../shared/notify.ts'
import { fetchCallableRules, fetchExternalApis, fieldOfMessage, nodeApi } from './api.ts'
import { RULE_TREE_CHANGED_EVENT, type RuleTreeChange } from './changed-event.ts'
import { CommentsPanel } from './comments-panel.tsx'
import type { CreateRequest } from './create-entry.tsx'
import { createEntry, setFormulaExpression } from './dictionary.ts'
import { withCreatedEntity, withoutEntry } from './dictionary-sync.ts'
import { ENTITY_CREATED_EVENT, ENTITY_DELETED_EVENT, parseCreatedEntity, parseDeletedEntity } from '../entity-sync/events.ts'
import { SourcesPanel } from './sources-panel.tsx'
import { insertNode, placementForNew, removeSubtree, replaceNode } from './edits.ts'
import { fieldPayload, fieldsOf, nodeSummary, typeLabel, type FieldValues } from './fields.ts'
import { moveFocus, treeCommand, type TreeCommand } from './keyboard.ts'
import { knownNames } from './live-checks.ts'
import { useDragMove } from './drag-move.ts'
import { applyMove, keyboardPlacement, type Placement } from './moves.ts'
import { NodeActions } from './node-actions.tsx'
import { NodeEditor, type ServerError } from './node-editor.tsx'
import { NodeRow } from './node-row.tsx'
import type { ApiRef, DictionaryEntry, RuleTreeProps, TreeNode } from './props.ts'
import { useRowBudget } from './row-budget.ts'
import { issuesByNode } from './set-checks.ts'
import { ancestorsOf, buildTree, nodesFromModels, parentIds, siblingsOf, subtreeIds, visibleRows, type Tree } from './tree.ts'
import { TypePicker } from './type-picker.tsx'

/** Small trees open fully; bigger ones show their roots (and the way to the active node) until asked. */
const OPEN_ALL_UP_TO = 300
/** Whole-set checks wait for this quiet time after a change, so bursts of moves or saves run them once. */
const CHECK_DELAY_MS = 400

interface Adding { anchorId: number | null; as: 'child' | 'sibling' }
interface Deleted { nodeId: number; label: string }
interface EntityChange { id: number; reservedName: string; entityTypeId?: number }

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function initialExpanded(tree: Tree, activeId: number | null): Set<number> {
  if (tree.nodes.size <= OPEN_ALL_UP_TO) return parentIds(tree)
  return new Set(activeId === null ? [] : ancestorsOf(tree, activeId))
}

function entityChangeOf(event: Event): EntityChange | null {
  const detail = (event as CustomEvent<unknown>).detail as Partial<EntityChange> | null
  if (!detail || typeof detail.reservedName !== 'string') return null
  return { id: Number(detail.id), reservedName: detail.reservedName, ...(typeof detail.entityTypeId === 'number' ? { entityTypeId: detail.entityTypeId } : {}) }
}

const kindAfter = (change: EntityChange, kind: 'variable' | 'formula'): 'variable' | 'formula' =>
  change.entityTypeId === undefined ? kind : change.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable'

function renamed(entries: readonly DictionaryEntry[], change: EntityChange): DictionaryEntry[] {
  return entries.map((entry) => entry.id !== change.id ? entry : { ...entry, name: change.reservedName, kind: kindAfter(change, entry.kind) })
}

export function RuleTree(props: RuleTreeProps) {
  const readOnly = props.mode === 'read'
  const api = useMemo(() => nodeApi(props.rule.id), [props.rule.id])
  const [nodes, setNodes] = useState<ReadonlyMap<number, TreeNode>>(() => new Map(props.nodes.map((node) => [node.id, node])))
  const tree = useMemo(() => buildTree(nodes.values()), [nodes])
  const [activeId, setActiveId] = useState<number | null>(() => props.activeNodeId ?? tree.children.get(null)?.[0] ?? null)
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => initialExpanded(tree, props.activeNodeId))
  const rows = useMemo(() => visibleRows(tree, expanded), [tree, expanded])
  const shown = useRowBudget(rows.length)
  const tabbableId = rows.some((row) => row.id === activeId) ? activeId : rows[0]?.id ?? null
  const [editingId, setEditingId] = useState<number | null>(null)
  const [adding, setAdding] = useState<Adding | null>(null)
  const [saving, setSaving] = useState(false)
  const [serverError, setServerError] = useState<ServerError | null>(null)
  const [checked, setChecked] = useState<{ tree: Tree | null; issues: ReadonlyMap<number, CheckIssue[]> }>({ tree: null, issues: new Map() })
  const issues = checked.issues
  const [entries, setEntries] = useState<readonly DictionaryEntry[]>(props.entities)
  const known = useMemo(() => knownNames(entries), [entries])
  const [commentsFor, setCommentsFor] = useState<number | null>(null)
  const [sourcesFor, setSourcesFor] = useState<number | null>(null)
  const [sourceCounts, setSourceCounts] = useState<ReadonlyMap<number, number>>(() => new Map(Object.entries(props.sourceCounts).map(([id, n]) => [Number(id), n])))
  const [deleted, setDeleted] = useState<Deleted | null>(null)
  const [focusRequest, setFocusRequest] = useState(0)
  const container = useRef<HTMLDivElement>(null)
  const nextDraftId = useRef(-1)

  // The props name this set's rules and the called ones; the selector fragment adds other sets' rules once a Rule Call is edited.
  const [knownRules, setKnownRules] = useState(props.rules)
  const selectorRead = useRef(false)
  const ruleNames = useMemo(() => new Map(knownRules.map((rule) => [rule.id, rule.name])), [knownRules])
  const ruleName = useCallback((id: number) => ruleNames.get(id), [ruleNames])
  const callable = useMemo(() => knownRules.filter((rule) => rule.id !== props.rule.id), [knownRules, props.rule.id])

  const latest = useRef({ tree, rows, activeId, nodes })
  latest.current = { tree, rows, activeId, nodes }

  const focusNode = useCallback((id: number | null) => {
    setActiveId(id)
    setFocusRequest((n) => n + 1)
  }, [])

  // A requested focus moves to the active row once it is rendered (a batch of rows may still be on its way).
  const focusHandled = useRef(0)
  useEffect(() => {
    if (focusRequest === focusHandled.current || activeId === null || editingId !== null || adding !== null) return
    const element = container.current?.querySelector<HTMLElement>(`[data-node-id="${activeId}"]`)
    if (!element) return
    focusHandled.current = focusRequest
    element.focus()
  }, [focusRequest, activeId, editingId, adding, shown])

  // The node of part/{nodeId} is scrolled to once it is rendered.
  const scrolledToStart = useRef(props.activeNodeId === null)
  useEffect(() => {
    if (scrolledToStart.current) return
    const element = container.current?.querySelector(`[data-node-id="${props.activeNodeId}"]`)
    if (!element) return
    scrolledToStart.current = true
    element.scrollIntoView({ block: 'center' })
  }, [props.activeNodeId, shown])

  // Whole-set static checks, off the keystroke path: asked of the server after a quiet time following a change of
  // the saved tree (and after an outside rename, which re-reads the tree); a newer change cancels an older question.
  // A move shows in the tree before the server has it, so the question waits for the moves still being saved.
  // At the same moment the rest of the page hears of the change (the header's stats); the first tree is the page's.
  const [movesInFlight, setMovesInFlight] = useState(0)
  const firstTree = useRef(tree)
  useEffect(() => {
    if (movesInFlight > 0) return
    const asking = new AbortController()
    const timer = setTimeout(() => {
      if (tree !== firstTree.current) {
        document.dispatchEvent(new CustomEvent<RuleTreeChange>(RULE_TREE_CHANGED_EVENT, { detail: { ruleId: props.rule.id } }))
      }
      api.checks(asking.signal).then(
        (found) => setChecked({ tree, issues: issuesByNode(found, props.rule.id) }),
        (error: unknown) => {
          if (asking.signal.aborted) return
          console.warn('Rule tree: the set\'s checks could not be read', error)
          setChecked({ tree, issues: new Map() })
        },
      )
    }, CHECK_DELAY_MS)
    return () => {
      clearTimeout(timer)
      asking.abort()
    }
  }, [api, props.rule.id, tree, movesInFlight])

  // The external APIs an API Call may name, read from the apiselector fragment once one is edited.
  const [apis, setApis] = useState<readonly ApiRef[]>(props.apis)
  const apiNames = useMemo(() => new Map(apis.map((api) => [api.id, api.name])), [apis])
  const apiName = useCallback((id: string) => apiNames.get(id), [apiNames])
  /** A node as dialogs and panels name it: its type and text, rules and APIs by name ("API Call “Rates” → {{Rate}}"). */
  const labelOfNode = useCallback((node: TreeNode) => `${typeLabel(node.type)} “${nodeSummary(node, ruleName, apiName).slice(0, 60)}”`, [ruleName, apiName])
  const apisRead = useRef(false)

  const editingType = editingId === null ? undefined : nodes.get(editingId)?.type
  useEffect(() => {
    if (editingType !== 'apiCall' || apisRead.current) return
    apisRead.current = true
    fetchExternalApis(props.adviceSet.id).then(setApis, (error: unknown) => console.warn('Rule tree: the external APIs could not be listed', error))
  }, [editingType, props.adviceSet.id])
  useEffect(() => {
    if (editingType !== 'ruleCall' || selectorRead.current) return
    selectorRead.current = true
    fetchCallableRules(props.adviceSet.id).then((found) => setKnownRules((current) => {
      const known = new Set(current.map((rule) => rule.id))
      return [...current, ...found.filter((rule) => !known.has(rule.id))]
    }), (error: unknown) => console.warn('Rule tree: only the rules of the page can be called', error))
  }, [editingType, props.adviceSet.id])

  const reload = useCallback(async () => {
    const models = await api.tree()
    const counts = new Map([...latest.current.nodes.values()].map((node) => [node.id, node.commentCount]))
    setNodes(new Map(nodesFromModels(models, counts).map((node) => [node.id, node])))
    setEditingId((id) => (id !== null && id < 0 ? null : id))
  }, [api])

  const reloadAfterFailure = useCallback((error: unknown) => {
    notify({ type: 'error', text: messageOf(error) })
    reload().catch((failure: unknown) => notify({ type: 'error', text: `Could not re-read the tree: ${messageOf(failure)}` }))
  }, [reload])

  const expand = useCallback((ids: number[]) => setExpanded((current) => {
    if (ids.every((id) => current.has(id))) return current
    return new Set([...current, ...ids])
  }), [])

  const select = useCallback((id: number) => {
    expand(ancestorsOf(latest.current.tree, id))
    setActiveId(id)
  }, [expand])

  // search:select-node bubbles from a node element; entity:changed comes to the document from whoever renamed.
  useEffect(() => {
    const element = container.current
    const onSelect = (event: Event) => {
      const nodeId = Number((event as CustomEvent<{ nodeId: unknown }>).detail?.nodeId)
      if (latest.current.tree.nodes.has(nodeId)) select(nodeId)
    }
    const onEntityChanged = (event: Event) => {
      const change = entityChangeOf(event)
      if (change) {
        setEntries((current) => renamed(current, change))
      }
      reload().catch((error: unknown) => notify({ type: 'error', text: `Could not re-read the tree: ${messageOf(error)}` }))
    }
    element?.addEventListener('search:select-node', onSelect)
    document.addEventListener('entity:changed', onEntityChanged)
    return () => {
      element?.removeEventListener('search:select-node', onSelect)
      document.removeEventListener('entity:changed', onEntityChanged)
    }
  }, [reload, select])

  // Entries made or deleted in this tab or another (islands/entity-sync) join or leave the `{{` suggestions.
  useEffect(() => {
    const onCreated = (event: Event) => {
      const entity = parseCreatedEntity((event as CustomEvent<unknown>).detail)
      if (entity) setEntries((current) => withCreatedEntity(current, entity, props.adviceSet))
    }
    const onDeleted = (event: Event) => {
      const deleted = parseDeletedEntity((event as CustomEvent<unknown>).detail)
      if (deleted) setEntries((current) => withoutEntry(current, deleted.id))
    }
    document.addEventListener(ENTITY_CREATED_EVENT, onCreated)
    document.addEventListener(ENTITY_DELETED_EVENT, onDeleted)
    return () => {
      document.removeEventListener(ENTITY_CREATED_EVENT, onCreated)
      document.removeEventListener(ENTITY_DELETED_EVENT, onDeleted)
    }
  }, [props.adviceSet])

  const createNode = useCallback(async (type: NodeType, placement: Placement, content: Record<string, unknown>, draftId?: number) => {
    setSaving(true)
    try {
      const node = await api.create({ type, ...content }, placement)
      setNodes(() => {
        const current = buildTree(latest.current.nodes.values())
        return draftId === undefined ? insertNode(current, node, placement) : replaceNode(current, draftId, node)
      })
      if (placement.parentId !== null) expand([placement.parentId])
      setServerError(null)
      setEditingId(null)
      focusNode(node.id)
    } catch (error) {
      setServerError({ field: fieldOfMessage(messageOf(error)), message: messageOf(error) })
      if (draftId === undefined) notify({ type: 'error', text: messageOf(error) })
    } finally {
      setSaving(false)
    }
  }, [api, expand, focusNode])

  const chooseType = useCallback((type: NodeType) => {
    // One unsaved node at a time: a new one replaces one still open.
    const current = buildTree([...latest.current.nodes.values()].filter((node) => node.id > 0))
    const placement = placementForNew(current, adding?.anchorId ?? null, adding?.as ?? 'child')
    setAdding(null)
    if (fieldsOf(type).length === 0) {
      void createNode(type, placement, {})
      return
    }
    const id = nextDraftId.current--
    const draft: TreeNode = {
      id, parentId: placement.parentId, position: placement.position, type, expression: null, variable: null, headline: null,
      text: null, question: null, calledRuleId: null, apiId: null, tags: [], commentCount: 0,
    }
    setNodes(insertNode(current, draft, placement))
    if (placement.parentId !== null) expand([placement.parentId])
    setServerError(null)
    setActiveId(id)
    setEditingId(id)
  }, [adding, createNode, expand])

  const closePicker = useCallback(() => {
    setAdding(null)
    setFocusRequest((n) => n + 1)
  }, [])

  /** A name a node uses, added to the dictionary; a question asking for it goes just before the node. */
  const createEntryFor = useCallback(async (node: TreeNode, request: CreateRequest) => {
    const created = await createEntry(request.entry)
    // Its announcement (entity:created) may have added it already.
    setEntries((current) => [...withoutEntry(current, created.id), created])
    const written = request.entry.kind === 'formula' ? `[[${created.name}]]` : `{{${created.name}}}`
    if (request.question === null) {
      notify({ type: 'success', text: `${written} is in the dictionary now.` })
      return
    }
    const placement = { parentId: node.parentId, position: siblingsOf(latest.current.tree, node.id).indexOf(node.id) }
    try {
      const asked = await api.create({ type: 'inputRequest', variable: created.name, question: request.question }, placement)
      setNodes(() => insertNode(buildTree(latest.current.nodes.values()), asked, placement))
      notify({ type: 'success', text: `${written} is in the dictionary now, and a question asks for it before this node.` })
    } catch (error) {
      notify({ type: 'error', text: `${written} is in the dictionary, but its question was not added: ${messageOf(error)}` })
    }
  }, [api])

  const setFormulaExpressionOf = useCallback(async (formula: DictionaryEntry, expression: string) => {
    const saved = await setFormulaExpression(formula, expression)
    setEntries((current) => current.map((entry) => (entry.id === saved.id ? saved : entry)))
  }, [])
  const formulaExpressions = useMemo(() => new Map(entries.filter((entry) => entry.kind === 'formula').map((entry) => [entry.name, entry.expression])), [entries])

  const saveNode = useCallback(async (node: TreeNode, values: FieldValues) => {
    const content = fieldPayload(node.type, values)
    if (node.id < 0) {
      const siblings = siblingsOf(latest.current.tree, node.id)
      await createNode(node.type, { parentId: node.parentId, position: siblings.indexOf(node.id) }, content, node.id)
      return
    }
    setSaving(true)
    try {
      const saved = await api.update(node, content)
      setNodes((current) => new Map(current).set(saved.id, saved))
      setServerError(null)
      setEditingId(null)
      focusNode(saved.id)
    } catch (error) {
      setServerError({ field: fieldOfMessage(messageOf(error)), message: messageOf(error) })
    } finally {
      setSaving(false)
    }
  }, [api, createNode, focusNode])

  const cancelEdit = useCallback((node: TreeNode) => {
    setEditingId(null)
    setServerError(null)
    if (node.id < 0) {
      const { tree: current } = latest.current
      const siblings = siblingsOf(current, node.id)
      const back = siblings[siblings.indexOf(node.id) - 1] ?? node.parentId ?? siblings.find((id) => id !== node.id) ?? null
      setNodes(removeSubtree(current, node.id))
      focusNode(back)
    } else {
      focusNode(node.id)
    }
  }, [focusNode])

  const moveNodeTo = useCallback(async (id: number, placement: Placement) => {
    const { tree: current } = latest.current
    setNodes(applyMove(current, id, placement))
    if (placement.parentId !== null) expand([placement.parentId])
    focusNode(id)
    setMovesInFlight((n) => n + 1)
    try {
      await api.move(id, placement)
    } catch (error) {
      reloadAfterFailure(error)
    } finally {
      setMovesInFlight((n) => n - 1)
    }
  }, [api, expand, focusNode, reloadAfterFailure])

  const copyNode = useCallback(async (id: number) => {
    try {
      const copyId = await api.copy(id)
      await reload()
      focusNode(copyId)
      notify({ type: 'success', text: 'Node copied.' })
    } catch (error) {
      reloadAfterFailure(error)
    }
  }, [api, reload, focusNode, reloadAfterFailure])

  const deleteNode = useCallback(async (id: number) => {
    const { tree: current } = latest.current
    const node = current.nodes.get(id)
    if (!node) return
    const under = subtreeIds(current, id).length - 1
    const label = labelOfNode(node)
    const yes = await confirmDialog({
      heading: 'Delete node',
      text: `Delete the ${label}${under > 0 ? ` and the ${under} node${under === 1 ? '' : 's'} under it` : ''}?`,
      yes: 'Delete', no: 'Cancel',
    })
    if (!yes) return
    try {
      await api.remove(id)
      const siblings = siblingsOf(current, id)
      const next = siblings[siblings.indexOf(id) + 1] ?? siblings[siblings.indexOf(id) - 1] ?? node.parentId
      setNodes(removeSubtree(latest.current.tree, id))
      setDeleted({ nodeId: id, label })
      focusNode(next ?? null)
      notify({ type: 'success', text: `Deleted the ${label}. Undo is above the tree.` })
    } catch (error) {
      reloadAfterFailure(error)
    }
  }, [api, labelOfNode, focusNode, reloadAfterFailure])

  const undoDelete = useCallback(async () => {
    if (!deleted) return
    try {
      await api.recover(deleted.nodeId)
      setDeleted(null)
      await reload()
      select(deleted.nodeId)
      setFocusRequest((n) => n + 1)
    } catch (error) {
      reloadAfterFailure(error)
    }
  }, [api, deleted, reload, select, reloadAfterFailure])

  const toggle = useCallback((id: number) => setExpanded((current) => {
    const next = new Set(current)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    return next
  }), [])

  /** Sources belong to advice nodes; the panel replaces the comments beside the tree. */
  const openSources = useCallback((id: number) => {
    if (latest.current.tree.nodes.get(id)?.type !== 'advice') return
    setCommentsFor(null)
    setSourcesFor(id)
  }, [])

  const run = useCallback((command: TreeCommand) => {
    const { tree: current, rows: visible, activeId: active } = latest.current
    switch (command.kind) {
      case 'focus':
      case 'right':
      case 'left': {
        const result = moveFocus(visible, active, command, (id) => current.nodes.get(id)?.parentId ?? null)
        if (result.expand !== undefined) expand([result.expand])
        if (result.collapse !== undefined) toggle(result.collapse)
        focusNode(result.activeId)
        return
      }
      case 'expandAll':
        setExpanded(parentIds(current))
        return
      case 'comments':
        if (active !== null && active > 0 && props.comments) {
          setSourcesFor(null)
          setCommentsFor(active)
        }
        return
      case 'sources':
        if (active !== null && active > 0) openSources(active)
        return
      case 'add':
        setAdding({ anchorId: active, as: command.as })
        return
    }
    if (active === null || active < 0) return
    switch (command.kind) {
      case 'edit':
        if (fieldsOf(current.nodes.get(active)!.type).length > 0) {
          setServerError(null)
          setEditingId(active)
        }
        return
      case 'move': {
        const placement = keyboardPlacement(current, active, command.move)
        if (placement) void moveNodeTo(active, placement)
        return
      }
      case 'copy':
        void copyNode(active)
        return
      case 'delete':
        void deleteNode(active)
        return
    }
  }, [expand, toggle, focusNode, moveNodeTo, copyNode, deleteNode, openSources, props.comments])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!(event.target instanceof HTMLElement) || event.target.getAttribute('role') !== 'treeitem') return
    const command = treeCommand(event, readOnly)
    if (!command) return
    event.preventDefault()
    run(command)
  }

  // Roving focus: whichever row gets the focus (Tab back into the tree, a script) is the active one.
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const target = event.target
    if (!(target instanceof HTMLElement) || target.getAttribute('role') !== 'treeitem' || editingId !== null) return
    const id = Number(target.dataset.nodeId)
    if (id !== latest.current.activeId) setActiveId(id)
  }

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const target = event.target instanceof Element ? event.target : null
    const row = target?.closest<HTMLElement>('[data-node-id]')
    if (!target || !row || target.closest('.rule-tree__editor, .rule-tree__picker')) return
    const id = Number(row.dataset.nodeId)
    const action = target.closest<HTMLElement>('[data-action]')?.dataset.action
    if (action === 'toggle') toggle(id)
    else if (action === 'comments' && props.comments) { setSourcesFor(null); setCommentsFor(id) }
    else if (action === 'sources') openSources(id)
    else if (action === 'edit') run({ kind: 'edit' })
    else if (action === 'add-child') run({ kind: 'add', as: 'child' })
    else if (action === 'add-sibling') run({ kind: 'add', as: 'sibling' })
    else if (action === 'copy') run({ kind: 'copy' })
    else if (action === 'delete') run({ kind: 'delete' })
    if (id !== latest.current.activeId && editingId === null) focusNode(id)
  }

  const { drop, handlers: dragHandlers } = useDragMove(() => latest.current.tree, moveNodeTo, !readOnly && editingId === null)

  const commentsNode = commentsFor === null ? undefined : tree.nodes.get(commentsFor)
  const onCommentsAdded = useCallback((nodeId: number, count: number) => setNodes((current) => {
    const node = current.get(nodeId)
    return node ? new Map(current).set(nodeId, { ...node, commentCount: count }) : current
  }), [])
  const closeComments = useCallback(() => {
    setCommentsFor(null)
    setFocusRequest((n) => n + 1)
  }, [])
  const sourcesNode = sourcesFor === null ? undefined : tree.nodes.get(sourcesFor)
  const onSourcesCount = useCallback((nodeId: number, count: number) => setSourceCounts((current) => {
    if ((current.get(nodeId) ?? 0) === count) return current
    return new Map(current).set(nodeId, count)
  }), [])
  const closeSources = useCallback(() => {
    setSourcesFor(null)
    setFocusRequest((n) => n + 1)
  }, [])

  const activeParts = (node: TreeNode) => {
    if (editingId === node.id) {
      return (
        <NodeEditor key={node.id} node={node} known={known} entries={entries} rules={callable} apis={apis} serverError={serverError}
          saving={saving} onSave={saveNode} onCancel={cancelEdit} onCreateEntry={createEntryFor} onSetFormulaExpression={setFormulaExpressionOf} />
      )
    }
    if (adding && adding.anchorId === node.id) {
      return <TypePicker heading={adding.as === 'child' ? 'Add a child node of type' : 'Add a sibling node of type'} onChoose={chooseType} onClose={closePicker} />
    }
    return readOnly || node.id < 0 ? null : <NodeActions node={node} />
  }

  return (
    <div className="rule-tree" data-mode={props.mode}>
      <div className="rule-tree__toolbar">
        <button type="button" onClick={() => setExpanded(parentIds(tree))}>Expand all</button>
        <button type="button" onClick={() => setExpanded(new Set())}>Collapse all</button>
        {!readOnly && <button type="button" onClick={() => setAdding({ anchorId: null, as: 'child' })}>Add node</button>}
        <span className="rule-tree__count" aria-live="polite">{tree.nodes.size} node{tree.nodes.size === 1 ? '' : 's'}</span>
        {deleted && (
          <span className="rule-tree__undo" role="status">
            Deleted the {deleted.label}.{' '}
            <button type="button" onClick={() => void undoDelete()}>Undo</button>
          </span>
        )}
        {!readOnly && (
          <span className="rule-tree__keys">Keys: arrows move, Enter edits, A adds a child, Shift+A a sibling, Alt+arrows move the node, C copies, Delete deletes, M comments, S sources of advice.</span>
        )}
      </div>
      {adding && adding.anchorId === null && (
        <TypePicker heading="Add a node of type" onChoose={chooseType} onClose={closePicker} />
      )}
      <div
        ref={container}
        role="tree"
        aria-label={`Rule ${props.rule.name}`}
        aria-busy={shown < rows.length}
        className="rule-tree__tree"
        data-checks={checked.tree === tree ? 'done' : 'pending'}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onClick={onClick}
        onDoubleClick={(event) => { if (event.target instanceof Element && event.target.closest('.rule-tree__line')) run({ kind: 'edit' }) }}
        {...dragHandlers}
      >
        {rows.length === 0 && <p className="rule-tree__empty">This rule has no nodes yet.{readOnly ? '' : ' Use Add node to start.'}</p>}
        {rows.slice(0, shown).map((row) => {
          const node = tree.nodes.get(row.id)!
          const active = row.id === activeId
          return (
            <NodeRow
              key={row.id}
              node={node}
              level={row.level}
              posInSet={row.posInSet}
              setSize={row.setSize}
              hasChildren={row.hasChildren}
              expanded={row.expanded}
              active={active}
              tabbable={row.id === tabbableId}
              readOnly={readOnly}
              issues={issues.get(row.id)}
              dropZone={drop?.id === row.id ? drop.zone : null}
              sourceCount={sourceCounts.get(row.id) ?? 0}
              ruleName={ruleName}
              apiName={apiName}
              formulaExpression={node.type === 'formula' && !node.expression && node.variable ? formulaExpressions.get(node.variable) ?? null : null}
            >
              {active ? activeParts(node) : undefined}
            </NodeRow>
          )
        })}
      </div>
      {commentsNode && (
        <CommentsPanel nodeId={commentsNode.id} nodeLabel={labelOfNode(commentsNode)}
          readOnly={readOnly} onAdded={onCommentsAdded} onClose={closeComments} />
      )}
      {sourcesNode && (
        <SourcesPanel nodeId={sourcesNode.id} nodeLabel={labelOfNode(sourcesNode)}
          readOnly={readOnly} maxFiles={props.maxSourcesPerNode} maxBytes={props.maxUploadBytes} onCountChange={onSourcesCount} onClose={closeSources} />
      )}
    </div>
  )
}
