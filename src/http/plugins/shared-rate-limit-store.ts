// A store for @fastify/rate-limit that counts in PostgreSQL (the delivery rate limiter's table), so the per-address
// limits of the sign-in and password forms hold across every instance on the database, not per process.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { SharedRequestCounter } from '../../services/delivery/rate-limit.ts'

type Callback = Parameters<FastifyRateLimitStore['incr']>[1]
type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0]

/** The store class the plugin instantiates; each route with its own limit gets a child counting apart. */
export function sharedRateLimitStore(count: SharedRequestCounter): FastifyRateLimitStoreCtor {
  return class SharedRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string

    /** The plugin passes its settings here; a child passes its route's scope. */
    constructor(scope?: unknown) {
      this.scope = typeof scope === 'string' ? scope : 'address'
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      count(`${this.scope}:${key}`, timeWindow).then(
        ({ count: current, msLeft }) => callback(null, { current, ttl: msLeft }),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), { current: 0, ttl: 0 }))
    }

    child(options: ChildOptions): FastifyRateLimitStore {
      // Typed as the route's options; what the plugin passes is its merged settings with the route under routeInfo.
      const route = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo
      return new SharedRateLimitStore(`address:${[route?.method].flat().join(',')}:${route?.url ?? ''}`)
    }
  }
}
