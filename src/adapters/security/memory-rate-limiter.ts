import type { Clock } from '../../application/ports/clock'
import type { RateLimiter, RateLimitUse } from '../../application/ports/rate-limiter'

/**
 * Fixed one-minute windows counted in this process. Several instances behind a load balancer each count
 * on their own (docs/api/access.md "Rate limits"); the map is swept as windows end so it cannot grow without bound.
 */
export class MemoryRateLimiter implements RateLimiter {
  private windowStart = 0
  private hits = new Map<string, number>()

  constructor(
    readonly limit: number,
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  get windowSeconds(): number {
    return this.windowMs / 1000
  }

  hit(key: string): RateLimitUse {
    const now = this.clock.now().getTime()
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now - (now % this.windowMs)
      this.hits = new Map()
    }
    const count = (this.hits.get(key) ?? 0) + 1
    this.hits.set(key, count)
    return {
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000)),
      exceeded: count > this.limit,
    }
  }
}
