// The Advice API keeps each owner's decision mode and the personal variables of each set for a few seconds
// (services/decisions/settings.ts). A change made through this instance must count from the next answer on, so the
// routes that can change them forget what is kept once they succeeded (other instances follow within seconds).
import type { FastifyInstance } from 'fastify'

/** After any successful write of the routes of `app` (the dictionary's, the activity log's restores), the next answer reads the settings afresh. */
export function forgetDecisionSettingsAfterWrites(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    // onSend, not onResponse: the cache is cleared before the client learns of the change, so its next call sees it.
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400 && request.user) app.partner.recorder.settings.forgetOwner(request.user.ownerId)
    return payload
  })
}
