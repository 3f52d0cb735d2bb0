// What every page of the app answers with (issue 18 point 7): a CSP that runs only our own scripts and says who may
// frame the page, nosniff, a referrer policy, and the same-origin frame guard where the page is not embeddable.
import type { Test } from 'tap'

interface Headers { [name: string]: string | string[] | number | undefined }

/**
 * `frameAncestors`: what the CSP's frame-ancestors must say ("'self'" for the app's own pages). `frameGuard: false`
 * for the embed route, which decides its framing per answer in the CSP alone (X-Frame-Options cannot name origins).
 */
export function assertPageSecurityHeaders(t: Test, headers: Headers, opts: { frameAncestors?: string; frameGuard?: boolean } = {}): void {
  const ancestors = opts.frameAncestors ?? "'self'"
  const csp = String(headers['content-security-policy'] ?? '')
  const directives = new Map(csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...values] = d.split(/\s+/)
    return [name!, values.join(' ')] as const
  }))
  t.equal(directives.get('default-src'), "'self'", 'CSP default-src is self')
  t.equal(directives.get('script-src'), "'self'", 'CSP runs only our own scripts (no inline, no eval)')
  t.equal(directives.get('object-src'), "'none'", 'CSP allows no plugins')
  t.equal(directives.get('frame-ancestors'), ancestors, `CSP frame-ancestors ${ancestors}`)
  t.equal(headers['x-content-type-options'], 'nosniff')
  t.equal(headers['referrer-policy'], 'no-referrer')
  if (opts.frameGuard === false) t.equal(headers['x-frame-options'], undefined, 'no X-Frame-Options: the CSP decides who frames it')
  else t.equal(headers['x-frame-options'], 'SAMEORIGIN')
}
