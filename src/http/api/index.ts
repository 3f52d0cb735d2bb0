import type { FastifyInstance } from 'fastify'
import { userApi } from './user.ts'
import { adviceSetApi } from './adviceset.ts'
import { adviceSetPortableApi } from './adviceset-portable.ts'
import { tagsApi } from './tags.ts'
import { activityApi } from './activity.ts'
import { recentItemsApi } from './recent-items.ts'
import { searchApi } from './search.ts'
import { ruleApi } from './rule.ts'
import { ruleNodeApi } from './rule-node.ts'
import { entityApi } from './entity.ts'
import { commentApi } from './comment.ts'
import { adminApiKeyApi } from './admin-apikey.ts'
import { markdownPreviewApi } from './markdown-preview.ts'
import { publishApi } from './publish.ts'
import { catalogApi } from './catalog.ts'
import { ownerApi } from './owner.ts'
import { jobApi } from './job.ts'
import { opengraphApi } from './opengraph.ts'
import { externalApiApi } from './external-api.ts'
import { adviceScenarioApi } from './advicescenario.ts'
import { keywordMapApi } from './keywordmap.ts'
import { exportApi } from './export.ts'
import { adviceRequestsApi } from './advice-requests.ts'
import { analyticsApi } from './analytics.ts'
import { adviceSetTestingApi } from './adviceset-testing.ts'
import { supplementsApi } from './supplements.ts'
import { decisionSubjectApi } from './decisions-subject.ts'
import { decisionsApi } from './decisions.ts'
import { decisionExportApi } from './decision-export.ts'
import { decisionTableApi } from './decision-table.ts'

/** The API the app's own pages use, with the session (partner routes taking only a key are apart: advice-partner.ts). */
export async function apiRoutes(app: FastifyInstance) {
  await app.register(userApi, { prefix: '/user' })
  await app.register(adviceSetApi, { prefix: '/adviceset' })
  await app.register(adviceSetPortableApi, { prefix: '/adviceset' })
  await app.register(publishApi, { prefix: '/adviceset' })
  await app.register(adviceSetTestingApi, { prefix: '/adviceset' })
  await app.register(tagsApi, { prefix: '/tags' })
  await app.register(activityApi, { prefix: '/activity' })
  await app.register(recentItemsApi, { prefix: '/recentitem' })
  await app.register(searchApi)
  await app.register(ruleApi, { prefix: '/rule' })
  await app.register(ruleNodeApi, { prefix: '/rule/:id/node' })
  await app.register(entityApi, { prefix: '/entity' })
  await app.register(commentApi, { prefix: '/comment/:ruleNodeId' })
  await app.register(adminApiKeyApi, { prefix: '/admin/apikey' })
  await app.register(markdownPreviewApi, { prefix: '/advice' })
  await app.register(catalogApi, { prefix: '/catalog' })
  await app.register(ownerApi, { prefix: '/owner' })
  await app.register(jobApi, { prefix: '/job' })
  await app.register(opengraphApi, { prefix: '/opengraph' })
  await app.register(externalApiApi, { prefix: '/external-api' })
  await app.register(adviceScenarioApi, { prefix: '/advicescenario' })
  await app.register(keywordMapApi, { prefix: '/keywordmap' })
  await app.register(exportApi, { prefix: '/export' })
  await app.register(adviceRequestsApi, { prefix: '/adviceset' })
  await app.register(analyticsApi, { prefix: '/google-analytics' })
  await app.register(supplementsApi, { prefix: '/supplements' })
  await app.register(decisionSubjectApi, { prefix: '/decisions/subject' })
  await app.register(decisionsApi, { prefix: '/adviceset' })
  await app.register(decisionExportApi, { prefix: '/adviceset' })
  await app.register(decisionTableApi)
}
