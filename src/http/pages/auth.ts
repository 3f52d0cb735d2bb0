// Sign-in, sign-up, sign-out and the password pages (SPEC §2 Auth row).
import type { FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  authenticate, changePassword, isLinkTokenUsable, requestPasswordReset, setPasswordWithToken, signUp,
} from '../../services/accounts/users.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { accountLimiter } from '../plugins/account-limiter.ts'
import { createRateLimiter } from '../../services/delivery/rate-limit.ts'
import { FormBody } from '../schemas.ts'
import { redirectWithin } from '../header-values.ts'
import { keptValues, renderFormError } from './forms.ts'

const FORM_LIMIT = { max: 10, timeWindow: 60_000 }
const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) })
/** `?next=` is checked where it is used (redirectWithin); any other query parameter is ignored. */
const NextQuery = Type.Object({ next: Type.Optional(Type.Unknown()) })

/** The account named by a posted form (the limiter hands the request over untyped). */
function emailKey(request: FastifyRequest): string | undefined {
  const body = request.body
  const email = body !== null && typeof body === 'object' && 'email' in body ? body.email : undefined
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined
}

async function signIn(request: FastifyRequest, userId: number): Promise<void> {
  await request.session.regenerate()
  request.session.userId = userId
}

export const authPages: FastifyPluginAsyncTypebox = async (app) => {
  // Per IP (onRequest, config) and per account (preHandler, once the body names the account).
  const limiter = createRateLimiter(app.deps.db, { scope: 'account', onError: (err) => app.log.warn({ err }, 'sign-in attempts: the shared count failed; this instance counted alone') })
  const perAccount = accountLimiter({ limiter, max: FORM_LIMIT.max, keyOf: emailKey })

  app.get('/login', { schema: { querystring: NextQuery } }, async (request, reply) => {
    const next = request.query.next
    if (request.user) return redirectWithin(reply, next, '/')
    return reply.page('auth/sign-in', { title: 'Sign in', next: typeof next === 'string' ? next : '' })
  })

  app.post('/login', { config: { rateLimit: FORM_LIMIT }, preHandler: perAccount, schema: { querystring: NextQuery, body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const next = request.query.next
    const user = await authenticate(app.deps, { email: body.email, password: body.password })
    if (!user) {
      reply.code(401)
      return reply.page('auth/sign-in', { title: 'Sign in', values: keptValues(body), next: typeof next === 'string' ? next : '',
        formError: 'The e-mail address or password is not correct.' })
    }
    await signIn(request, user.id)
    return redirectWithin(reply, next, '/', { code: 303 })
  })

  app.get('/signup', async (request, reply) => {
    if (request.user) return reply.redirect('/')
    return reply.page('auth/sign-up', { title: 'Sign up' })
  })

  app.post('/signup', { config: { rateLimit: FORM_LIMIT }, preHandler: perAccount, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    try {
      const user = await signUp(app.deps, { name: body.name, email: body.email, password: body.password, company: body.company })
      await signIn(request, user.id)
      reply.flash({ type: 'info', text: `Welcome to Advice Studio, ${user.name}.` })
      return reply.redirect('/', 303)
    } catch (error) {
      return renderFormError(reply, error, 'auth/sign-up', { title: 'Sign up', values: keptValues(body) })
    }
  })

  app.get('/logout', async (_request, reply) => reply.page('auth/sign-out', { title: 'Sign out' }))

  app.post('/logout', async (request, reply) => {
    await request.session.destroy()
    return reply.redirect('/login', 303)
  })

  app.get('/password/forgot', async (_request, reply) => reply.page('auth/password-forgot', { title: 'Forgot password' }))

  app.post('/password/forgot', { config: { rateLimit: FORM_LIMIT }, preHandler: perAccount, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    try {
      await requestPasswordReset(app.deps, { email: body.email })
      return reply.page('auth/password-forgot', { title: 'Forgot password', sent: true, values: keptValues(body) })
    } catch (error) {
      return renderFormError(reply, error, 'auth/password-forgot', { title: 'Forgot password', values: keptValues(body) })
    }
  })

  for (const purpose of ['reset', 'setup'] as const) {
    app.get(`/password/${purpose}`, async (_request, reply) => reply.redirect('/password/forgot'))

    app.get(`/password/${purpose}/:token`, { schema: { params: TokenParams } }, async (request, reply) => {
      const { token } = request.params
      const usable = await isLinkTokenUsable(app.deps, purpose, token)
      if (!usable) reply.code(410)
      return reply.page('auth/password-token', { title: 'Choose a password', purpose, token, usable })
    })

    app.post(`/password/${purpose}/:token`, { schema: { params: TokenParams, body: FormBody }, config: { rateLimit: FORM_LIMIT } }, async (request, reply) => {
      const { token } = request.params
      const body = request.body ?? {}
      try {
        await setPasswordWithToken(app.deps, purpose, token, { password: body.password, confirm: body.confirm })
        reply.flash({ type: 'info', text: 'Your password is saved. Sign in with it now.' })
        return reply.redirect('/login', 303)
      } catch (error) {
        return renderFormError(reply, error, 'auth/password-token', { title: 'Choose a password', purpose, token, usable: true })
      }
    })
  }

  for (const [action, pageName] of [['/password/edit', 'password-reset'], ['/profile/password', 'user-page']] as const) {
    app.get(action, { preHandler: requireUser }, async (_request, reply) =>
      reply.page('auth/password-edit', { title: 'Change password', pageName, action }))
    app.post(action, { preHandler: requireUser, config: { rateLimit: FORM_LIMIT }, schema: { body: FormBody } }, async (request, reply) => {
      const body = request.body ?? {}
      try {
        await changePassword(app.deps, actorOf(request), { current: body.current, password: body.password, confirm: body.confirm }, request.session.sessionId)
        reply.flash({ type: 'info', text: 'Password changed. Your other sessions were signed out.' })
        return reply.redirect('/profile', 303)
      } catch (error) {
        return renderFormError(reply, error, 'auth/password-edit', { title: 'Change password', pageName, action })
      }
    })
  }
}
