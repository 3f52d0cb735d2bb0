// Eta views. reply.page() renders a page with what every layout needs (CSRF token, user, flash, app context).
import path from 'node:path'
import { dateFormatter, timeTagger } from '../format.ts'
import fp from 'fastify-plugin'
import view from '@fastify/view'
import { Eta } from 'eta'
import type { FastifyReply } from 'fastify'
import { indexNameFor } from '../../search/index.ts'
import { takeEntityAnnouncements } from './entity-announcements.ts'

declare module 'fastify' {
  interface FastifyReply {
    page(template: string, data?: Record<string, unknown>): Promise<string>
  }
}

const VIEWS_DIR = path.resolve(import.meta.dirname, '../../../views')

export interface PageData {
  title: string
  [key: string]: unknown
}

export default fp(async function viewPlugin(app, opts: { cache: boolean }) {
  const eta = new Eta({ views: VIEWS_DIR, cache: opts.cache, autoEscape: true })
  // @fastify/view reconfigures Eta's cache on every render from its `production` flag (NODE_ENV by default), which
  // would read and compile every template and include again per render: decide it here, from the explicit option.
  await app.register(view, { engine: { eta }, root: VIEWS_DIR, production: opts.cache })

  app.decorateReply('page', async function page(this: FastifyReply, template: string, data: Record<string, unknown> = {}) {
    const request = this.request
    const user = request.user
    const flash = request.session?.flash ?? []
    if (request.session?.flash) delete request.session.flash
    const entityEvents = takeEntityAnnouncements(request)
    const appContext = {
      currentUser: user ? { id: user.id, ownerId: user.ownerId, role: user.role, name: user.name, preferences: user.preferences } : null,
      currentRule: data.currentRule ?? null,
      currentAdviceSet: data.currentAdviceSet ?? null,
      ...(entityEvents.length > 0 ? { entityEvents } : {}),
    }
    const html = await this.viewAsync(template, {
      title: 'Advice Studio',
      // The header's search box asks the configured index (SEARCH_INDEX_PREFIX) on every page.
      searchIndexName: indexNameFor(this.server.deps.config),
      // Every page writes moments alike, in the viewer's zone (a page may pass its own).
      formatDate: dateFormatter(user?.preferences.tz),
      timeTag: timeTagger(user?.preferences.tz),
      ...data,
      csrfToken: this.generateCsrf(),
      user,
      impersonator: request.impersonator,
      flash,
      appContextJson: jsonForScript(appContext),
      notificationsProps: JSON.stringify({ flash }),
      path: request.url.split('?')[0],
      errors: data.errors ?? {},
      values: data.values ?? {},
    })
    this.type('text/html; charset=utf-8')
    return html
  })
}, { name: 'view', dependencies: ['session'] })

/** JSON safe to place inside <script type="application/json">: no "</script>" or "<!--" can close it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}
