// Writes what the partner routes count in memory — the Advice API's usage and the interview events — every two
// seconds and once more when the app closes.
import fp from 'fastify-plugin'
import { flushInterviewEvents } from '../../services/delivery/interview-events.ts'
import { flushApiUsage } from '../../services/delivery/usage.ts'

const FLUSH_EVERY_MS = 2_000

export default fp(async function apiUsagePlugin(app) {
  const { db } = app.deps
  // Each flush runs after the one still in progress (one-at-a-time.ts), so the close flush settles after the timer's.
  const flush = () => flushApiUsage(db).catch((err: unknown) => app.log.error({ err }, 'API usage flush failed; these counts are lost'))
    .then(() => flushInterviewEvents(db)).catch((err: unknown) => app.log.error({ err }, 'interview events flush failed; these counts are lost'))
  const timer = setInterval(flush, FLUSH_EVERY_MS)
  timer.unref()
  app.addHook('onClose', async () => {
    clearInterval(timer)
    await flush()
  })
}, { name: 'api-usage' })
