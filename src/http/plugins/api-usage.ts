// Writes what the partner routes count in memory — the Advice API's usage and the interview events — every two
// seconds and once more when the app closes.
import fp from 'fastify-plugin'
import { flushInterviewEvents } from '../../services/delivery/interview-events.ts'
import { flushApiUsage } from '../../services/delivery/usage.ts'

const FLUSH_EVERY_MS = 2_000

export default fp(async function apiUsagePlugin(app) {
  const { db } = app.deps
  let running: Promise<unknown> = Promise.resolve()
  // Flushes queue behind each other so the close flush runs after a timer flush still in progress.
  const flush = () => {
    running = running
      .then(() => flushApiUsage(db)).catch((err: unknown) => app.log.error({ err }, 'API usage flush failed; these counts are lost'))
      .then(() => flushInterviewEvents(db)).catch((err: unknown) => app.log.error({ err }, 'interview events flush failed; these counts are lost'))
    return running
  }
  const timer = setInterval(flush, FLUSH_EVERY_MS)
  timer.unref()
  app.addHook('onClose', async () => {
    clearInterval(timer)
    await flush()
  })
}, { name: 'api-usage' })
