// Issue 5: comments per rule node — count, add, edit, delete, restore; rights; activity rows.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { activity } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await createUser(db, { ownerId, role: 'author' })
const colleague = await createUser(db, { ownerId, role: 'author' })
const viewer = await createUser(db, { ownerId, role: 'viewer' })
const stranger = await createUser(db, { role: 'author' })
const agents = await Promise.all([author, colleague, viewer, stranger].map(async (user) => {
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  return agent
}))
const [agent, colleagueAgent, viewerAgent, strangerAgent] = agents as [Agent, Agent, Agent, Agent]

t.test('comments on a node', async (t) => {
  const set = await createAdviceSet(db, { ownerId })
  const { nodes } = await buildRule(db, set.id, 'R', [{ type: 'ruleExit' }])
  const base = `/api/comment/${nodes[0]!.id}`
  t.same((await agent.api('GET', `${base}/count`)).json().data, { count: 0 })
  const added = await agent.api('POST', base, { body: 'Check this threshold' })
  t.equal(added.statusCode, 201)
  const comment = added.json().data
  t.equal((await agent.api('POST', base, { body: '  ' })).json().error.message, 'body: the comment is required.')
  t.same((await viewerAgent.api('GET', `${base}/count`)).json().data, { count: 1 }, 'viewers read the count')
  t.same((await agent.api('GET', `/api/rule/${nodes[0]!.ruleId}`)).json().data.commentCounts, { [nodes[0]!.id]: 1 }, 'the rule carries every node\'s count')
  t.equal((await viewerAgent.api('GET', base)).json().data[0].body, 'Check this threshold')
  t.equal((await viewerAgent.api('POST', base, { body: 'hi' })).statusCode, 403, 'viewers cannot comment')
  t.equal((await strangerAgent.api('GET', `${base}/count`)).statusCode, 404, 'other owners do not see the node')
  t.equal((await colleagueAgent.api('PATCH', `${base}/${comment.id}`, { body: 'mine now' })).statusCode, 403, 'only the author edits')

  t.equal((await agent.api('PATCH', `${base}/${comment.id}`, { body: 'Check this threshold again' })).json().data.body, 'Check this threshold again')
  t.equal((await agent.api('DELETE', `${base}/${comment.id}`)).statusCode, 200)
  t.same((await agent.api('GET', `${base}/count`)).json().data, { count: 0 })
  t.equal((await agent.api('GET', `${base}/${comment.id}`)).statusCode, 404)
  t.equal((await agent.api('POST', `${base}/${comment.id}/restore`)).statusCode, 200)
  t.equal((await agent.api('GET', `${base}/${comment.id}`)).json().data.body, 'Check this threshold again')
  t.equal((await agent.api('POST', `${base}/${comment.id}/restore`)).statusCode, 400, 'a live comment is not restored')
  const other = await buildRule(db, set.id, 'Other', [{ type: 'ruleExit' }])
  t.equal((await agent.api('GET', `/api/comment/${other.nodes[0]!.id}/${comment.id}`)).statusCode, 404, 'a comment is found only under its node')

  const rows = await db.select().from(activity).where(and(eq(activity.entityType, 'comment'), eq(activity.entityId, String(comment.id)))).orderBy(activity.id)
  t.same(rows.map((r) => r.action), ['create', 'update', 'delete', 'restore'])
  t.match(rows[2]!.before, { parentId: nodes[0]!.id, deleted: false })
})
