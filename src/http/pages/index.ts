import type { FastifyInstance } from 'fastify'
import { activityPages } from './activity.ts'
import { apiKeyPages } from './api-keys.ts'
import { adviceSetPages } from './advice-set.ts'
import { authPages } from './auth.ts'
import { cardPages } from './card.ts'
import { dictionaryPages } from './dictionary.ts'
import { embedPages } from './embed.ts'
import { homePages } from './home.ts'
import { libraryPages } from './library.ts'
import { ruleDebugPages } from './rule-debug.ts'
import { rulePages } from './rule.ts'
import { searchPages } from './search.ts'
import { userPages } from './user.ts'
import { publishPages } from './publish.ts'
import { apiManagerPages } from './api-manager.ts'
import { adviceScenarioPages } from './advice-scenario.ts'
import { scenarioTreePages } from './scenario-tree.ts'
import { keywordMapPages } from './keyword-map.ts'
import { supportPages } from './support.ts'
import { exportPages } from './export.ts'
import { adviceRequestPages } from './advice-requests.ts'
import { tagPages } from './tags.ts'
import { branchToolPages } from './branches.ts'
import { mediaPages } from './media.ts'
import { decisionSubjectPages } from './decision-subject.ts'
import { decisionPages } from './decisions.ts'
import { decisionExportPages } from './decision-export.ts'
import { importPages } from './import.ts'

export async function pageRoutes(app: FastifyInstance) {
  await app.register(homePages)
  await app.register(authPages)
  await app.register(userPages)
  await app.register(libraryPages)
  await app.register(searchPages)
  await app.register(adviceSetPages)
  await app.register(rulePages)
  await app.register(activityPages)
  await app.register(dictionaryPages)
  await app.register(cardPages)
  await app.register(ruleDebugPages)
  await app.register(embedPages)
  await app.register(apiKeyPages)
  await app.register(publishPages)
  await app.register(apiManagerPages)
  await app.register(adviceScenarioPages)
  await app.register(scenarioTreePages)
  await app.register(keywordMapPages)
  await app.register(supportPages)
  await app.register(exportPages)
  await app.register(adviceRequestPages)
  await app.register(tagPages)
  await app.register(branchToolPages)
  await app.register(mediaPages)
  await app.register(decisionSubjectPages)
  await app.register(decisionPages)
  await app.register(decisionExportPages)
  await app.register(importPages)
}
