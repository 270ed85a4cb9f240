import { Elysia } from 'elysia'
import type { RateLimiter } from '../../application/ports/security'
import { TooManyRequestsError } from '../../domain/errors'
import { clientAddress } from './client-address'

/** The per-address limits of the anonymous routes. */
export interface AnonymousRateLimiters {
  /** POST /api/needs/public (PUBLIC_INTAKE_RATE_LIMIT per minute). */
  publicIntake: RateLimiter
  /** Login, refresh and accept-invite (AUTH_RATE_LIMIT per minute), besides login's per-email throttle. */
  auth: RateLimiter
}

/**
 * `rateLimit: 'publicIntake' | 'auth'` on an anonymous route: counts the request against its client address
 * before the body is validated, so a flood of bad requests is limited too; over the limit is 429 with
 * Retry-After.
 */
export function rateLimits(limiters: AnonymousRateLimiters, trustProxy: boolean) {
  return new Elysia({ name: 'rate-limits' }).macro({
    rateLimit: (name: keyof AnonymousRateLimiters) => ({
      transform({ request, server }) {
        const retryAfter = limiters[name].hit(clientAddress(request, server, trustProxy))
        if (retryAfter > 0) throw new TooManyRequestsError(retryAfter)
      },
    }),
  })
}

export type RateLimits = ReturnType<typeof rateLimits>
