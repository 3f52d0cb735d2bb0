// The decisions export form (views/decisions/_export-form.eta): starts the export job and goes back to the set's
// decisions section, whose jobs panel shows its progress and then its download. A bad filter comes back as a message there.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DECISION_EXPORT_FORMATS, planDecisionExport, startDecisionExportJob } from '../../services/decisions/export.ts'
import { ValidationError } from '../../services/errors.ts'
import { requireOneOf } from '../../services/validate.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdString } from '../schemas.ts'

const SetParams = Type.Object({ id: IdString })

export const decisionExportPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  app.post('/adviceset/:id/decisions/export', { preHandler: requireUser, schema: { params: SetParams, body: FormBody } }, async (request, reply) => {
    const setId = itemId(request.params.id)
    const body = request.body ?? {}
    const actor = actorOf(request)
    try {
      const format = requireOneOf('format', body.format, DECISION_EXPORT_FORMATS, 'Format')
      const plan = await planDecisionExport(deps, actor, setId, format, body)
      await startDecisionExportJob(deps, actor, plan)
      reply.flash({ type: 'info', text: `Preparing the export of ${plan.rows.toLocaleString('en')} decision record${plan.rows === 1 ? '' : 's'}. Its download appears below when it is ready.` })
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      reply.flash({ type: 'error', text: error.message })
    }
    return reply.redirect(`/adviceset/${setId}/show#decisions`, 303)
  })
}
