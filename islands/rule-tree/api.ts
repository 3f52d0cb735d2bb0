// The rule-node and comment routes the tree calls (SPEC §7), with answers turned into the island's shapes.
import type { CheckIssue } from '../../src/engine/checks/index.ts'
import type { NodeModel } from '../../src/engine/model.ts'
import { ApiError, callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import { parseTreeNode, type ApiRef, type RuleRef, type TreeNode } from './props.ts'
import type { Placement } from './moves.ts'

export interface NodeComment { id: number; body: string; authorName: string; createdAt: string; canEdit: boolean }

function dataOf(answer: unknown): unknown {
  return isRecord(answer) ? answer.data : undefined
}

/** A stored row as a tree node; the server's rows carry no comment count, so the caller says it. */
function nodeOf(answer: unknown, commentCount: number): TreeNode {
  return { ...parseTreeNode(dataOf(answer)), commentCount }
}

export function nodeApi(ruleId: number) {
  const base = `/api/rule/${ruleId}/node`
  return {
    async create(content: Record<string, unknown>, placement: Placement): Promise<TreeNode> {
      return nodeOf(await callApi(base, { method: 'POST', json: { ...content, ...placement } }), 0)
    },
    async update(node: TreeNode, content: Record<string, unknown>): Promise<TreeNode> {
      return nodeOf(await callApi(`${base}/${node.id}`, { method: 'PATCH', json: content }), node.commentCount)
    },
    async move(nodeId: number, placement: Placement): Promise<void> {
      await callApi(`${base}/move`, { method: 'POST', json: { nodeId, ...placement } })
    },
    async copy(nodeId: number): Promise<number> {
      return parseTreeNode(dataOf(await callApi(`${base}/${nodeId}/copy`, { method: 'POST', json: {} }))).id
    },
    async remove(nodeId: number): Promise<void> {
      await callApi(`${base}/${nodeId}`, { method: 'DELETE' })
    },
    async recover(nodeId: number): Promise<void> {
      await callApi(`${base}/${nodeId}/recover`, { method: 'POST' })
    },
    /** The whole set's static checks that concern this rule's nodes, as the server has the set now. */
    async checks(signal: AbortSignal): Promise<CheckIssue[]> {
      const data = dataOf(await callApi(`/api/rule/${ruleId}/checks`, { signal }))
      return Array.isArray(data) ? data.filter(isCheckIssue) : []
    },
    async tree(): Promise<NodeModel[]> {
      const data = dataOf(await callApi(`${base}/tree`))
      return Array.isArray(data) ? (data as NodeModel[]) : []
    },
  }
}

export type NodeApi = ReturnType<typeof nodeApi>

export async function listComments(nodeId: number): Promise<NodeComment[]> {
  const data = dataOf(await callApi(`/api/comment/${nodeId}`))
  if (!Array.isArray(data)) return []
  return data.filter(isRecord).map((row) => ({
    id: Number(row.id), body: String(row.body ?? ''), authorName: String(row.authorName ?? ''), createdAt: String(row.createdAt ?? ''),
    canEdit: row.canEdit === true,
  }))
}

export async function addComment(nodeId: number, body: string): Promise<void> {
  await callApi(`/api/comment/${nodeId}`, { method: 'POST', json: { body } })
}

export async function editComment(nodeId: number, id: number, body: string): Promise<void> {
  await callApi(`/api/comment/${nodeId}/${id}`, { method: 'PATCH', json: { body } })
}

/** A soft delete: `restoreComment` brings it back. */
export async function deleteComment(nodeId: number, id: number): Promise<void> {
  await callApi(`/api/comment/${nodeId}/${id}`, { method: 'DELETE' })
}

export async function restoreComment(nodeId: number, id: number): Promise<void> {
  await callApi(`/api/comment/${nodeId}/${id}/restore`, { method: 'POST' })
}

function isCheckIssue(value: unknown): value is CheckIssue {
  return isRecord(value) && typeof value.code === 'string' && typeof value.message === 'string' && (value.severity === 'error' || value.severity === 'warning')
}

/** The field a server validation message names (`expression: …`), if it names one. */
export function fieldOfMessage(message: string): string | null {
  return /^([a-zA-Z]+)(?:\.\d+)?: /.exec(message)?.[1] ?? null
}

/**
 * Every rule a Rule Call here may name, from the rule pages' selector fragment (this set's rules and those of other
 * readable sets, grouped by set, each a `data-pick-rule-id` button).
 */
export async function fetchCallableRules(adviceSetId: number): Promise<RuleRef[]> {
  const response = await fetch(`/adviceset/${adviceSetId}/rule/selector`, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
  if (!response.ok) throw new ApiError(`Could not list the rules to call (${response.status})`, response.status)
  const fragment = new DOMParser().parseFromString(await response.text(), 'text/html')
  return [...fragment.querySelectorAll<HTMLElement>('[data-advice-set-id]')].flatMap((group) => {
    const adviceSetName = group.querySelector('h3')?.firstChild?.textContent?.trim() ?? ''
    return [...group.querySelectorAll<HTMLElement>('[data-pick-rule-id]')].map((button) => ({
      id: Number(button.dataset.pickRuleId), name: button.dataset.pickName ?? button.textContent ?? '',
      adviceSetId: Number(group.dataset.adviceSetId), adviceSetName,
    }))
  })
}

/** The external APIs an API Call node here may call, from the rule pages' apiselector fragment (`data-pick-api-id` buttons, with what each maps). */
export async function fetchExternalApis(adviceSetId: number): Promise<ApiRef[]> {
  const response = await fetch(`/adviceset/${adviceSetId}/rule/apiselector`, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
  if (!response.ok) throw new ApiError(`Could not list the external APIs (${response.status})`, response.status)
  const fragment = new DOMParser().parseFromString(await response.text(), 'text/html')
  return [...fragment.querySelectorAll<HTMLElement>('[data-pick-api-id]')].map((button) => {
    // `Variable:type` pairs, in mapping order.
    const mapped = (button.dataset.pickMapped ?? '').split(',').filter(Boolean).map((pair) => pair.split(':') as [string, string?])
    return {
      id: button.dataset.pickApiId ?? '', name: button.dataset.pickName ?? button.textContent ?? '',
      variables: mapped.map(([variable]) => variable),
      dataTypes: Object.fromEntries(mapped.filter((pair): pair is [string, string] => pair[1] !== undefined)),
    }
  })
}
