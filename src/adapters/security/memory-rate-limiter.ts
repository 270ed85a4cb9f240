import type { Clock } from '../../application/ports/clock'
import type { RateLimiter } from '../../application/ports/security'

/**
 * Fixed one-minute windows counted in this process. Several instances behind a load balancer each count
 * on their own (docs/api.md); the map is swept as windows end so it cannot grow without bound.
 */
export class MemoryRateLimiter implements RateLimiter {
  private windowStart = 0
  private hits = new Map<string, number>()

  constructor(
    private readonly limitPerWindow: number,
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  hit(key: string): number {
    const now = this.clock.now().getTime()
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now - (now % this.windowMs)
      this.hits = new Map()
    }
    const count = (this.hits.get(key) ?? 0) + 1
    this.hits.set(key, count)
    return count > this.limitPerWindow ? Math.ceil((this.windowStart + this.windowMs - now) / 1000) : 0
  }
}
