// A tiny browser stand-in for app.inject: keeps cookies, reads the CSRF token from pages, posts forms and JSON.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'

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
