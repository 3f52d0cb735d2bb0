// Shared by the Advice API tests: a published multi-question advice set ("Pension check") and partner keys.
import type { LightMyRequestResponse } from 'fastify'
import type { Db } from '../../../src/db/client.ts'
import { insertEntity } from '../../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'
import type { TestContext } from '../../helpers/app.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { createOwner } from '../../helpers/factories.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'

export async function createSelectVariable(db: Db, ownerId: string, name: string, options: string[]) {
  return insertEntity(db, {
    ownerId, adviceSetId: null, entityTypeId: ENTITY_TYPES.variable.id, reservedName: name, dataType: 'select',
    validOptions: options, isClosedSet: true, displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: 'Where you live', createdBy: null,
  })
}

/**
 * Asks Age; under 18 ends with "Too young". Then Employed; employed people are asked Income and get "Max out your
 * pension" (over 50,000) or "Start small"; others get "Look into benefits". A second rule asks Region and states an
 * assumption about it; a third gives an example.
 */
export async function buildPensionSet(db: Db, ownerId: string, opts: { name?: string; isPublic?: boolean } = {}) {
  const set = await createAdviceSet(db, { ownerId, name: opts.name ?? 'Pension check', isPublic: opts.isPublic ?? false })
  const { nodes: profile } = await buildRule(db, set.id, 'Profile', [
    { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
    { type: 'condition', expression: '{{Age}} < 18', children: [
      { type: 'advice', headline: 'Too young', text: 'At {{Age}}, come back when you are 18.' },
      { type: 'ruleExit' },
    ] },
    { type: 'inputRequest', variable: 'Employed', question: 'Are you employed, at {{Age}}?' },
    { type: 'condition', expression: '{{Employed}}', children: [
      { type: 'inputRequest', variable: 'Income', question: 'What do you earn a year?' },
      { type: 'condition', expression: '{{Income}} > 50000', children: [
        { type: 'advice', headline: 'Max out your pension', text: 'With **{{Income}}** a year at {{Age}}, see [the guide](https://example.com/guide).', sources: [{ id: 'guide', name: 'Pension guide', uri: 'https://example.com/guide' }] },
      ] },
      { type: 'condition', expression: '{{Income}} <= 50000', children: [{ type: 'advice', headline: 'Start small', text: 'Put aside a little of {{Income}}.' }] },
    ] },
    { type: 'condition', expression: '!{{Employed}}', children: [{ type: 'advice', headline: 'Look into benefits', text: 'You may be owed help.' }] },
  ])
  const { nodes: place } = await buildRule(db, set.id, 'Place', [
    { type: 'inputRequest', variable: 'Region', question: 'Where do you live?' },
    { type: 'advice', headline: 'Rules of {{Region}}', text: 'We assume the rules of {{Region}} apply.', tags: ['assumption'] },
  ])
  await buildRule(db, set.id, 'Example', [{ type: 'advice', headline: 'Saving 10%', text: 'Ten percent of {{Income}} is [[Tenth]].', tags: ['example'] }])
  return { set, questions: { Age: profile[0]!, Employed: profile[4]!, Income: profile[6]!, Region: place[0]! } }
}

export async function createPensionVariables(db: Db, ownerId: string) {
  await createVariable(db, ownerId, 'Age', { dataType: 'number' })
  await createVariable(db, ownerId, 'Employed', { dataType: 'boolean' })
  await createVariable(db, ownerId, 'Income', { dataType: 'number' })
  await createSelectVariable(db, ownerId, 'Region', ['North', 'South'])
  await createFormula(db, ownerId, 'Tenth', '{{Income}} / 10')
}

/** Full answers that reach "Max out your pension". */
export const RICH_ANSWERS = { Age: 40, Employed: true, Income: 60000, Region: 'North' }

export async function partnerFixture(ctx: TestContext) {
  const db = ctx.database.db
  const ownerId = await createOwner(db, { name: 'Partner owner' })
  await createPensionVariables(db, ownerId)
  const { set, questions } = await buildPensionSet(db, ownerId)
  const version = await publishVersion(db, { adviceSetId: set.id })
  const production = await createApiKey(db, { ownerId, name: 'Production' })
  const preview = await createApiKey(db, { ownerId, name: 'Preview', environment: 'preview' })
  return { db, ownerId, set, questions, version, production, preview }
}

let addressCount = 0

/** One partner call through app.inject; each caller gets its own address. */
export function partnerCall(ctx: TestContext, secret: string | undefined) {
  addressCount += 1
  const remoteAddress = `10.77.0.${addressCount}`
  return (opts: { method?: 'GET' | 'POST'; url: string; accept?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse> => {
    const headers: Record<string, string> = { ...opts.headers }
    if (secret !== undefined) headers.authorization = `Bearer ${secret}`
    if (opts.accept !== undefined) headers.accept = opts.accept
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    return ctx.app.inject({
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'), url: opts.url, headers, remoteAddress,
      ...(opts.body === undefined ? {} : { payload: JSON.stringify(opts.body) }),
    })
  }
}

export function query(inputs: Record<string, string | number | boolean>): string {
  return new URLSearchParams(Object.entries(inputs).map(([k, v]) => [k, String(v)])).toString()
}
