// Issue 22, finding 4: what a starter set shares (DESIGN "Owners, roles and visibility"). Another team reads and
// copies its content — rules, nodes, dictionary entries, scenarios and the supplements linked to its nodes — but not
// its collaboration data: comments, the activity log and deleted lists, recent items, requests for advice, the
// supplements linked to the set itself and the links that open supplements without signing in. Those stay with the
// set's own team and provider admins, for every set another team reads (a public one too).
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { pngOf, upload } from '../../helpers/uploads.ts'
import { PROVIDER_OWNER_ID } from '../../../src/services/context.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const globex = await createOwner(db, { name: 'Globex' })
const acme = await createOwner(db, { name: 'Acme' })
const people = {
  globexAdmin: await createUser(db, { ownerId: globex, role: 'admin' }),
  globexViewer: await createUser(db, { ownerId: globex, role: 'viewer' }),
  acmeAuthor: await createUser(db, { ownerId: acme, role: 'author' }),
  providerAdmin: await createUser(db, { ownerId: PROVIDER_OWNER_ID, role: 'admin' }),
}
const agents = Object.fromEntries(await Promise.all(Object.entries(people).map(async ([who, user]) => [who, await signedInAgent(app, user)] as const))) as Record<keyof typeof people, Agent>
const { globexAdmin: owner, globexViewer: team, acmeAuthor: outsider, providerAdmin: provider } = agents

/** A set of Globex's offered to every team (starter or public, not both), with a note, a request and supplements of each kind. */
async function globexSet(kind: 'starter' | 'public') {
  const set = await createAdviceSet(db, { ownerId: globex, name: `Globex ${kind} set`, isStarter: kind === 'starter', isPublic: kind === 'public' })
  const entry = await createVariable(db, globex, `Globex_${kind}_rate`, { adviceSetId: set.id })
  const { rule, nodes: [advice, exit] } = await buildRule(db, set.id, 'Plan', [
    { type: 'advice', headline: `Save {{Globex_${kind}_rate}} percent` },
    { type: 'ruleExit' },
  ])
  const comment = (await owner.api('POST', `/api/comment/${advice!.id}`, { body: `Globex internal note (${kind})` })).json().data as { id: number }
  const request = (await owner.api('POST', `/api/adviceset/${set.id}/ai-user-request`, { text: `Globex request (${kind})` })).json().data as { id: number }
  const uploaded = async (name: string, fields: Record<string, string> = {}) => {
    const res = await upload(owner, { filename: `${name}.png`, data: await pngOf(40, 30) }, { name, ...fields })
    if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`)
    return res.json().data as { id: number }
  }
  const source = await uploaded(`Globex source (${kind})`, { targetType: 'ruleNode', targetId: String(advice!.id) })
  const reference = await uploaded(`Globex reference (${kind})`, { targetType: 'adviceSet', targetId: String(set.id) })
  const unlinked = await uploaded(`Globex unlinked (${kind})`)
  await owner.api('DELETE', `/api/rule/${rule.id}/node/${exit!.id}`)
  await owner.get(`/adviceset/${set.id}/show`)
  return { set, entry, rule, advice: advice!, comment, request, source, reference, unlinked }
}

const starter = await globexSet('starter')
const publicSet = await globexSet('public')

const status = async (agent: Agent, url: string) => (await agent.api('GET', url, undefined, { csrf: false })).statusCode
const pageStatus = async (agent: Agent, url: string) => (await agent.get(url)).statusCode
const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
const treeProps = (body: string) => JSON.parse(unescape(/data-island="rule-tree" data-props="([^"]*)"/.exec(body)![1]!))

for (const [kind, s] of [['starter', starter], ['public', publicSet]] as const) {
  t.test(`another team reads and copies a ${kind} set's content`, async (t) => {
    t.equal(await pageStatus(outsider, `/adviceset/${s.set.id}/show`), 200)
    t.equal(await pageStatus(outsider, `/adviceset/${s.set.id}/rule/${s.rule.id}/show`), 200)
    t.equal(await status(outsider, `/api/rule/${s.rule.id}`), 200)
    t.equal(await status(outsider, `/api/entity/${s.entry.id}`), 200, 'its dictionary entry')
    t.equal(await status(outsider, `/api/supplements/${s.source.id}`), 200, 'the supplement linked to its node')
    t.equal(await status(outsider, `/api/supplements/${s.source.id}/view`), 200)
    t.equal(await status(outsider, `/api/supplements/${s.source.id}/view?thumbnail=148x148`), 200)
    t.same((await outsider.api('GET', `/api/supplements?targetType=ruleNode&targetId=${s.advice.id}`)).json().data.map((x: { id: number }) => x.id), [s.source.id], "the node's sources")
    const debug = await outsider.api('POST', '/api/rule/debug', { adviceSetId: s.set.id, inputs: {} })
    t.equal(debug.statusCode, 200, 'its advice runs')
    const copy = await outsider.api('POST', '/api/adviceset/copy', { id: s.set.id, name: `Acme copy of ${kind}` })
    t.equal(copy.statusCode, 201, 'it is copied')
    const copiedRule = (await outsider.api('GET', `/api/adviceset/list-rule?id=${copy.json().data.id}`)).json().data[0] as { id: number }
    const copiedNode = (await outsider.api('GET', `/api/rule/${copiedRule.id}`)).json().data.nodes[0] as { id: string }
    t.same((await outsider.api('GET', `/api/comment/${copiedNode.id}`)).json().data, [], 'the copy carries no comments')
    t.same((await outsider.api('GET', `/api/supplements?targetType=ruleNode&targetId=${copiedNode.id}`)).json().data.map((x: { id: number }) => x.id), [s.source.id], 'the copy keeps its sources')
  })

  t.test(`another team gets none of a ${kind} set's collaboration data`, async (t) => {
    const node = `/api/comment/${s.advice.id}`
    for (const url of [node, `${node}/count`, `${node}/${s.comment.id}`]) t.equal(await status(outsider, url), 404, `GET ${url}`)
    t.equal((await outsider.api('POST', node, { body: 'Acme was here' })).statusCode, 404, 'nor adds to them')
    t.same((await outsider.api('GET', `/api/rule/${s.rule.id}`)).json().data.commentCounts, {}, 'the rule shows no comment counts')
    const rulePage = await outsider.get(`/adviceset/${s.set.id}/rule/${s.rule.id}/show`)
    t.equal(treeProps(rulePage.body).comments, false, 'the tree offers no comments')
    t.notOk(treeProps(rulePage.body).nodes.some((n: { commentCount?: number }) => n.commentCount), 'nor their counts')
    t.notMatch(rulePage.body, 'rule-node__comments', 'nor does the tree without JavaScript')
    t.notMatch(rulePage.body, `/adviceset/${s.set.id}/activity`, 'the rule header links no activity')

    t.equal(await pageStatus(outsider, `/adviceset/${s.set.id}/activity`), 404, 'the activity page')
    for (const url of [`/api/activity/${s.advice.id}/deleted`, `/api/activity/roots/deleted?ruleId=${s.rule.id}`, `/api/activity/rules/deleted?adviceSetId=${s.set.id}`]) {
      t.equal(await status(outsider, url), 404, `the deleted list ${url}`)
    }

    t.equal(await status(outsider, `/api/adviceset/${s.set.id}/ai-user-request`), 404, 'requests for advice')
    t.equal(await status(outsider, `/api/adviceset/${s.set.id}/ai-user-request/${s.request.id}`), 404)

    t.equal(await status(outsider, `/api/supplements/${s.reference.id}`), 404, 'the supplement linked to the set itself')
    t.equal(await status(outsider, `/api/supplements/${s.reference.id}/view`), 404)
    t.equal(await status(outsider, `/api/supplements?targetType=adviceSet&targetId=${s.set.id}`), 404, "the set's own supplements")
    t.equal(await status(outsider, `/api/supplements/${s.unlinked.id}`), 404, 'a supplement linked to nothing')
    const media = await outsider.get(`/media/${s.source.id}/show`)
    t.equal(media.statusCode, 200, "the node's source has its page")
    t.notMatch(media.body, 'Link to share', 'without the link that opens it without signing in')
    t.notMatch(media.body, 'token=')
    t.notMatch(media.body, `Globex reference (${kind})`)

    const setPage = await outsider.get(`/adviceset/${s.set.id}/show`)
    t.notMatch(setPage.body, 'set-supplements-heading', 'the set page has no Supplements section')
    t.notMatch(setPage.body, `Globex reference (${kind})`)
    t.notMatch(setPage.body, `/adviceset/${s.set.id}/activity`, 'nor an Activity link')
    t.notMatch(setPage.body, `Globex request (${kind})`)

    t.equal((await outsider.api('POST', '/api/recentitem', { entityType: 'adviceset', entityId: s.set.id })).statusCode, 404, 'it is not a recent item')
    t.notOk((await outsider.api('GET', '/api/recentitem')).json().data.some((i: { entityId: number }) => i.entityId === s.set.id), 'opening its page left no recent item')
  })
}

t.test("the set's own team and provider admins get its collaboration data", async (t) => {
  const s = starter
  for (const agent of [team, provider]) {
    t.equal((await agent.api('GET', `/api/comment/${s.advice.id}`)).json().data[0].body, 'Globex internal note (starter)')
    t.same((await agent.api('GET', `/api/rule/${s.rule.id}`)).json().data.commentCounts, { [s.advice.id]: 1 })
    const rulePage = await agent.get(`/adviceset/${s.set.id}/rule/${s.rule.id}/show`)
    t.equal(treeProps(rulePage.body).comments, true)
    t.match(rulePage.body, `/adviceset/${s.set.id}/activity`)
    const activity = await agent.get(`/adviceset/${s.set.id}/activity?days=1`)
    t.equal(activity.statusCode, 200)
    t.match(activity.body, 'Globex internal note (starter)', "the set's log names the comment")
    t.equal((await agent.api('GET', `/api/activity/roots/deleted?ruleId=${s.rule.id}`)).json().data.length, 1, 'the deleted node is listed')
    t.equal(await status(agent, `/api/adviceset/${s.set.id}/ai-user-request`), 200)
    t.equal(await status(agent, `/api/supplements/${s.reference.id}`), 200)
    t.same((await agent.api('GET', `/api/supplements?targetType=adviceSet&targetId=${s.set.id}`)).json().data.map((x: { id: number }) => x.id), [s.reference.id])
    const setPage = await agent.get(`/adviceset/${s.set.id}/show`)
    t.match(setPage.body, 'Globex reference (starter)')
    t.match(setPage.body, `/adviceset/${s.set.id}/activity`)
    t.equal((await agent.api('POST', '/api/recentitem', { entityType: 'adviceset', entityId: s.set.id })).statusCode, 201)
  }
  t.match((await team.get(`/media/${s.source.id}/show`)).body, 'Link to share', "its owner's team shares the source")
  t.ok((await owner.api('GET', '/api/recentitem')).json().data.some((i: { entityId: number }) => i.entityId === s.set.id), "opening the page is remembered for the set's team")
})
