import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import type { Container } from 'inversify'
import { Authenticate } from '../../application/auth/authenticate'
import type { Logger } from '../../application/ports/logger'
import type { Persistence } from '../../application/ports/persistence'
import type { RateLimiter } from '../../application/ports/security'
import { authRoutes } from './auth.routes'
import { authentication } from './authentication'
import { healthRoutes } from './health.routes'
import { needsRoutes } from './needs.routes'
import { partnersRoutes } from './partners.routes'
import { INVALID_JSON, problemDetails } from './problem'
import { publicIntakeGuard } from './public-intake-guard'

export interface HttpDependencies {
  container: Container
  logger: Logger
  persistence: Persistence
  publicIntakeRateLimiter: RateLimiter
  trustProxy: boolean
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** The whole HTTP surface: one Elysia plugin per area, the OpenAPI document generated from their schemas. */
export function createHttpApp(deps: HttpDependencies) {
  const auth = authentication(deps.container.get(Authenticate))
  return new Elysia({ normalize: false })
    .use(
      openapi({
        path: '/api/docs',
        specPath: '/api/openapi.json',
        documentation: {
          info: {
            title: 'Intake and case-management service',
            version: '0.1.0',
            description: 'Needs, constituents, partners and members of community assistance organizations. Errors are application/problem+json.',
          },
          components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        },
      }),
    )
    .onRequest(({ request, set }) => {
      const given = request.headers.get('x-request-id')
      set.headers['x-request-id'] = given && REQUEST_ID.test(given) ? given : crypto.randomUUID()
    })
    .use(problemDetails(deps.logger))
    .onParse({ as: 'global' }, async ({ request }) => {
      // Bodies are JSON whatever the Content-Type says; an empty body is no body. Broken JSON is reported
      // by validation, after authentication, so an anonymous caller gets 401 first.
      const text = await request.text()
      if (text === '') return undefined
      try {
        return JSON.parse(text)
      } catch {
        return INVALID_JSON
      }
    })
    .use(healthRoutes(deps.persistence))
    .use(authRoutes(deps.container, auth))
    .use(needsRoutes(deps.container, auth, publicIntakeGuard(deps.publicIntakeRateLimiter, deps.trustProxy)))
    .use(partnersRoutes(deps.container, auth))
}
