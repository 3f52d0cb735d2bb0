// The demo set served on a first start, so a new user sees an answer of the Advice API and its decision record within
// a minute: version 1 published (by the first run itself: the demo team has no admin to approve it) and a production
// API key for the demo team. Both are audited as the first run's doing.
import { findVersionInState, insertVersion, nextVersionNumber } from '../../db/queries/versions.ts'
import { audit } from '../audit/audit.ts'
import { issueApiKey } from '../delivery/api-keys.ts'
import { contentHashOf, snapshotAdviceSet } from '../publishing/snapshot.ts'
import { changeVersions, ENTITY_VERSION, versionAuditView } from '../publishing/versions.ts'
import type { Deps } from '../context.ts'

/** The answers the printed curl line sends: below target, no pension, so two pieces of advice come back. */
export const DEMO_QUESTION = { Age: 34, Annual_Income: 48000, Savings: 20000, Has_Pension: false }

export interface DemoDelivery { adviceSetId: number; versionNumber: number; secret: string }

export async function serveDemoSet(deps: Deps, ownerId: string, adviceSetId: number): Promise<DemoDelivery> {
  const version = await changeVersions(deps.db, adviceSetId, async (tx) => {
    if (await findVersionInState(tx, adviceSetId, 'published')) throw new Error('the demo set is already published')
    const snapshot = await snapshotAdviceSet(tx, adviceSetId)
    const now = new Date()
    const row = await insertVersion(tx, {
      adviceSetId, number: await nextVersionNumber(tx, adviceSetId), state: 'published', notes: 'Published on first start, so the Advice API answers at once.',
      snapshot, contentHash: contentHashOf(snapshot), createdBy: null, submittedBy: null, submittedAt: now, approvedBy: null, approvedAt: now, publishedBy: null, publishedAt: now,
    })
    await audit(tx, null, { ownerId, action: 'create', entityType: ENTITY_VERSION, entityId: row.id, after: { ...versionAuditView(row), transition: 'publish' } })
    return row
  })
  const { key, secret } = await issueApiKey(deps.db, {
    ownerId, name: 'Demo production key', environment: 'production', audienceId: null, allowedAdviceSetIds: [], allowedOrigins: [],
    rateLimit: 600, adviceRequests: false, explain: false, createdBy: null,
  })
  await audit(deps.db, null, { ownerId, action: 'create', entityType: 'apikey', entityId: key.id, after: { name: key.name, environment: key.environment, prefix: key.prefix } })
  return { adviceSetId, versionNumber: version.number, secret }
}

/** The line printed on first start: a ready request for the demo set's advice. */
export function demoCurlLine(baseUrl: string, demo: DemoDelivery): string {
  const query = new URLSearchParams(Object.entries(DEMO_QUESTION).map(([name, value]) => [name, String(value)])).toString()
  return `curl -i -H 'Authorization: Bearer ${demo.secret}' '${baseUrl}/api/advice/${demo.adviceSetId}?${query}'`
}
