/** Where a key stands in its window after a hit. */
export interface RateLimitUse {
  /** Hits left in the window; 0 once the limit is reached. */
  remaining: number
  /** Seconds until the window ends and the whole quota is back (at least 1). */
  resetSeconds: number
  /** Whether this hit was over the limit (and must be refused). */
  exceeded: boolean
}

/** Fixed-window counters for anonymous endpoints: `limit` hits per `windowSeconds` for each key. */
export interface RateLimiter {
  readonly limit: number
  readonly windowSeconds: number
  /** Counts one hit for `key`. */
  hit(key: string): RateLimitUse
}
