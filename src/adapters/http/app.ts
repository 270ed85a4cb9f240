import './production-mode'
import './formats'
import './validation-messages'
import { Elysia } from 'elysia'
import type { Logger } from '../../application/ports/logger'
import type { Persistence } from '../../application/ports/persistence'
import type { UseCases } from '../../application/use-cases'
import { apiDocs } from './api-docs'
import { auditRoutes } from './audit.routes'
import { authRoutes } from './auth.routes'
import { intakePage } from './pages/intake-page'
import { passwordPages } from './pages/password-pages'
import { authentication } from './authentication'
import { consoleApp } from './console'
import { constituentsRoutes } from './constituents.routes'
import { healthRoutes } from './health.routes'
import { membersRoutes } from './members.routes'
import { observability, type HttpMetrics } from './observability'
import { organizationsRoutes } from './organizations.routes'
import { needsRoutes } from './needs.routes'
import { partnersRoutes } from './partners.routes'
import { nestsDeeperThan } from '../../domain/shared/nesting'
import { BODY_TOO_LARGE, INVALID_JSON, MAX_BODY_BYTES, NESTED_TOO_DEEP, NUL_IN_BODY, problemDetails } from './problem'
import { rateLimits, type AnonymousRateLimiters } from './rate-limits'
import { requestSite } from './request-site'
import { sessionCookieRoutes } from './session-cookie.routes'
import { webhooksRoutes } from './webhooks.routes'
import { webhookEndpointsRoutes } from './webhook-endpoints.routes'

export interface HttpDependencies {
  useCases: UseCases
  logger: Logger
  persistence: Persistence
  /** False until the database is migrated and the first-start bootstrap is done: /readyz says 503 till then. */
  isReady: () => boolean
  rateLimiters: AnonymousRateLimiters
  trustProxy: boolean
  publicBaseUrl: string
  /** The service's version, shown in the OpenAPI document. */
  version: string
  metrics: HttpMetrics & { databaseError(): void }
  /** When set, GET /metrics needs it as a bearer token. */
  metricsToken?: string
}

/**
 * Bodies are JSON whatever the Content-Type says (forms only for webhooks); an empty body is `null`. Broken JSON and an
 * over-long body are reported by validation, after authentication, so an anonymous caller gets 401 first.
 */
async function parseBody({ request }: { request: Request }): Promise<unknown> {
  const text = await readBody(request)
  if (text === undefined) return BODY_TOO_LARGE
  if (text === '') return null
  // Webhooks (Twilio) post forms; every other body is JSON.
  if (request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text))
  // NUL is no character of a text people write, and PostgreSQL cannot store it: refuse it everywhere alike.
  if (text.includes('\\u0000') || text.includes('\u0000')) return NUL_IN_BODY
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return INVALID_JSON
  }
  // Refused before any validation: validators and formatters walk values recursively.
  return nestsDeeperThan(body) ? NESTED_TOO_DEEP : body
}

/**
 * The body as text, or undefined past MAX_BODY_BYTES. A declared Content-Length was already checked when
 * the request arrived (problem.ts); a body without one (chunked) is read only up to the limit.
 */
async function readBody(request: Request): Promise<string | undefined> {
  if (request.headers.has('content-length') || !request.body) return request.text()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength
    if (size > MAX_BODY_BYTES) {
      await reader.cancel()
      return undefined
    }
    chunks.push(next.value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The whole HTTP surface: one Elysia plugin per area, the OpenAPI document generated from their schemas. */
export function createHttpApp(deps: HttpDependencies) {
  const auth = authentication(deps.useCases.auth.authenticate)
  const limits = rateLimits(deps.rateLimiters, deps.trustProxy)
  const site = requestSite(deps.publicBaseUrl)
  return new Elysia({ normalize: false })
    .use(apiDocs(deps.version, deps.publicBaseUrl))
    .use(observability(deps.logger, deps.metrics, deps.metricsToken))
    .use(problemDetails(deps.logger, (error) => deps.persistence.isOutage(error), () => deps.metrics.databaseError()))
    // The second entry never runs (the first always answers); it tells the OpenAPI generator the bodies are
    // JSON, which it cannot see in a function and would otherwise document every body with no content.
    .onParse({ as: 'global' }, [parseBody, 'json'] as never)
    .use(healthRoutes(deps.persistence, deps.isReady))
    .use(authRoutes(deps.useCases.auth, auth, limits, site, deps.trustProxy))
    .use(sessionCookieRoutes(deps.useCases.auth, auth, limits, site, deps.trustProxy, deps.publicBaseUrl))
    .use(passwordPages(deps.useCases.auth, limits, site))
    .use(intakePage(deps.useCases.needs, limits, site))
    .use(consoleApp())
    .use(needsRoutes(deps.useCases.needs, auth, limits, site, deps.logger))
    .use(partnersRoutes(deps.useCases.partners, auth))
    .use(constituentsRoutes(deps.useCases.constituents, auth, deps.logger))
    .use(membersRoutes(deps.useCases.members, auth))
    .use(organizationsRoutes(deps.useCases.organizations, auth))
    .use(auditRoutes(deps.useCases.audit, auth))
    .use(webhooksRoutes(deps.useCases.sms, deps.publicBaseUrl))
    .use(webhookEndpointsRoutes(deps.useCases.webhooks, auth))
}
