import { Elysia } from 'elysia'
import type { RateLimiter } from '../../application/ports/security'
import { TooManyRequestsError } from '../../domain/errors'
import { clientAddress } from './client-address'

/**
 * `publicIntake: true` on an anonymous route: counts the request against its client address before the
 * body is validated, so a flood of bad requests is limited too (contract §1 PUBLIC_INTAKE_RATE_LIMIT).
 */
export function publicIntakeGuard(limiter: RateLimiter, trustProxy: boolean) {
  return new Elysia({ name: 'public-intake-guard' }).macro({
    publicIntake: {
      transform({ request, server }) {
        const retryAfter = limiter.hit(clientAddress(request, server, trustProxy))
        if (retryAfter > 0) throw new TooManyRequestsError(retryAfter)
      },
    },
  })
}

export type PublicIntakeGuard = ReturnType<typeof publicIntakeGuard>
