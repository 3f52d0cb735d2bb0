// A tiny browser stand-in for app.inject: keeps cookies, reads the CSRF token from pages, posts forms and JSON.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { eq, sql } from 'drizzle-orm'
import { sessions } from '../../src/db/schema/index.ts'

let agentCount = 0
/** Each agent is its own client address unless told otherwise, so per-IP rate limits behave as for real people. */
function nextAddress(): string {
  agentCount += 1
  return `10.200.${Math.floor(agentCount / 250)}.${(agentCount % 250) + 1}`
}

export class Agent {
  private cookies = new Map<string, string>()
  csrfToken = ''

  constructor(private app: FastifyInstance, private remoteAddress = nextAddress()) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  /** Replaces this agent's cookies with another's (to replay an old session). */
  useCookies(header: string): void {
    this.cookies.clear()
    for (const part of header.split(/;\s*/).filter(Boolean)) {
      const i = part.indexOf('=')
      this.cookies.set(part.slice(0, i), part.slice(i + 1))
    }
  }

  async request(opts: { method: string; url: string; payload?: unknown; headers?: Record<string, string>; form?: Record<string, string> }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { accept: 'text/html', ...opts.headers }
    if (this.cookies.size) headers.cookie = this.cookieHeader
    let payload = opts.payload as string | object | undefined
    if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      payload = new URLSearchParams(opts.form).toString()
    }
    const res = await this.app.inject({ method: opts.method as 'GET', url: opts.url, headers, payload, remoteAddress: this.remoteAddress })
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(res.body)?.[1]
    if (token) this.csrfToken = token
    return res
  }

  get(url: string) {
    return this.request({ method: 'GET', url })
  }

  /** Loads `page` first when no CSRF token is known yet, as a browser would have. */
  async postForm(url: string, form: Record<string, string>, opts: { csrf?: boolean; page?: string } = {}) {
    if (opts.csrf !== false && !this.csrfToken) await this.get(opts.page ?? url)
    return this.request({ method: 'POST', url, form: opts.csrf === false ? form : { _csrf: this.csrfToken, ...form } })
  }

  async api(method: string, url: string, body?: unknown, opts: { csrf?: boolean } = {}) {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (opts.csrf !== false) {
      if (!this.csrfToken) await this.get('/')
      headers['x-csrf-token'] = this.csrfToken
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    return this.request({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) })
  }

  async signIn(email: string, password: string) {
    await this.get('/login')
    const res = await this.postForm('/login', { email, password })
    if (res.statusCode !== 303) throw new Error(`sign-in failed for ${email}: ${res.statusCode}`)
    await this.get('/')
    return res
  }
}

/** An agent already signed in as `user`. */
export async function signedInAgent(app: FastifyInstance, user: { email: string; password: string }): Promise<Agent> {
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  return agent
}

/**
 * An agent signed in as `user` without posting the sign-in form, for a test that needs many fresh sessions of one
 * account: the sign-in form allows an account ten attempts a minute, and on PostgreSQL the count outlives the agent.
 * The session is the one a visit to /login starts, with the user put in it as a successful sign-in does.
 */
export async function sessionAgent(app: FastifyInstance, user: { id: number }): Promise<Agent> {
  const agent = new Agent(app)
  await agent.get('/login')
  const sid = /(?:^|; )sid=([^;]+)/.exec(agent.cookieHeader)?.[1]
  if (!sid) throw new Error('a visit to /login started no session')
  const id = decodeURIComponent(sid).split('.')[0] ?? ''
  const updated = await app.deps.db.update(sessions)
    .set({ userId: user.id, data: sql`${sessions.data} || jsonb_build_object('userId', ${user.id}::int)` })
    .where(eq(sessions.sid, id)).returning({ sid: sessions.sid })
  if (updated.length !== 1) throw new Error(`no stored session ${id}`)
  await agent.get('/')
  return agent
}
