// A browser stand-in over real HTTP (fetch), for apps running in other processes: keeps cookies, reads the CSRF
// token from pages, signs in with the form, sends JSON with the CSRF header. The in-process twin is agent.ts.

export interface HttpResponse {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON (throws when it is not JSON). */
  json(): any
}

export class HttpAgent {
  private cookies = new Map<string, string>()
  csrfToken = ''

  /** `baseUrl` can change (the same browser going to another instance behind a load balancer); `headers` go with
   * every request (X-Forwarded-For, to be another client address to an app that trusts its proxy). */
  constructor(public baseUrl: string, private readonly headers: Record<string, string> = {}) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name)
  }

  /** Replaces this agent's cookies with another header's (to replay an old session). */
  useCookies(header: string): void {
    this.cookies.clear()
    for (const part of header.split(/;\s*/).filter(Boolean)) {
      const i = part.indexOf('=')
      this.cookies.set(part.slice(0, i), part.slice(i + 1))
    }
  }

  async request(method: string, url: string, opts: { body?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'text/html', ...this.headers, ...opts.headers }
    if (this.cookies.size) headers.cookie = this.cookieHeader
    const res = await fetch(new URL(url, this.baseUrl), { method, headers, body: opts.body, redirect: 'manual', signal: opts.signal })
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(/;\s*/)
      const i = pair!.indexOf('=')
      const name = pair!.slice(0, i)
      const value = pair!.slice(i + 1)
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()))
      if (value === '' || expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await res.text()
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(text)?.[1]
    if (token) this.csrfToken = token
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) }
  }

  get(url: string, opts: { signal?: AbortSignal } = {}) {
    return this.request('GET', url, opts)
  }

  /** Loads `page` first when no CSRF token is known yet, as a browser would have. */
  async postForm(url: string, form: Record<string, string>, opts: { page?: string } = {}) {
    if (!this.csrfToken) await this.get(opts.page ?? url)
    return this.request('POST', url, {
      body: new URLSearchParams({ _csrf: this.csrfToken, ...form }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
  }

  async api(method: string, url: string, body?: unknown, opts: { signal?: AbortSignal } = {}) {
    if (!this.csrfToken) await this.get('/')
    const headers: Record<string, string> = { accept: 'application/json', 'x-csrf-token': this.csrfToken }
    if (body !== undefined) headers['content-type'] = 'application/json'
    return this.request(method, url, { headers, body: body === undefined ? undefined : JSON.stringify(body), signal: opts.signal })
  }

  async signIn(email: string, password: string): Promise<HttpResponse> {
    this.csrfToken = ''
    await this.get('/login')
    const res = await this.postForm('/login', { email, password })
    if (res.status !== 303) throw new Error(`sign-in failed for ${email}: ${res.status}`)
    // The session changed at sign-in, and its CSRF token with it.
    await this.get('/')
    return res
  }
}
