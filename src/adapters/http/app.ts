import './production-mode'
import './formats'
import './validation-messages'
import { Elysia } from 'elysia'
import type { Logger } from '../../application/ports/logger'
import type { Persistence } from '../../application/ports/persistence'
import type { UseCases } from '../../application/use-cases'
import { apiDocs } from './api-docs'
import { leaveAnswersUnchecked } from './answer-checks'
import { auditRoutes } from './audit.routes'
import { authRoutes } from './auth.routes'
import { intakePage } from './pages/intake-page'
import { confirmEmailPage } from './pages/confirm-email-page'
import { forgotPasswordPage } from './pages/forgot-password-page'
import { passwordPages } from './pages/password-pages'
import { authentication } from './authentication'
import { consoleApp } from './console'
import { constituentsRoutes } from './constituents.routes'
import { DatabaseOutages, type OutageMetrics } from './database-outages'
import { healthRoutes, type Lifecycle } from './health.routes'
import { membersRoutes } from './members.routes'
import { savedViewsRoutes } from './saved-views.routes'
import { servicesRoutes } from './services.routes'
import { hsdsRoutes } from './hsds/hsds.routes'
import { observability, type AccessLog, type HttpMetrics } from './observability'
import { developmentOutboxRoutes } from './development-outbox.routes'
import { organizationsRoutes } from './organizations.routes'
import { messagesRoutes } from './messages.routes'
import { quickRepliesRoutes } from './quick-replies.routes'
import { needsRoutes } from './needs.routes'
import { reportsRoutes } from './reports.routes'
import { partnersRoutes } from './partners.routes'
import { problemDetails } from './problem'
import { parseBody } from './request-body'
import { rateLimits, type AnonymousRateLimiters } from './rate-limits'
import { requestSite } from './request-site'
import { sessionCookieRoutes } from './session-cookie.routes'
import { twilioWebhooksRoutes } from './twilio-webhooks.routes'
import { streamRoutes } from './stream.routes'
import { webhookEndpointsRoutes } from './webhook-endpoints.routes'
import { federationRoutes } from './federation.routes'
import { referralPartnersRoutes } from './referral-partners.routes'
import { referralsRoutes } from './referrals.routes'

export interface HttpDependencies {
  useCases: UseCases
  logger: Logger
  accessLog: AccessLog
  persistence: Persistence
  /**
   * `starting` until the database is migrated and the first-start bootstrap is done, `stopping` once a
   * shutdown began: /readyz says 503 in both.
   */
  lifecycle: () => Lifecycle
  rateLimiters: AnonymousRateLimiters
  trustProxy: boolean
  publicBaseUrl: string
  /** The service's version, shown in the OpenAPI document. */
  version: string
  metrics: HttpMetrics & OutageMetrics
  /** When set, GET /metrics needs it as a bearer token. */
  metricsToken?: string
  /** Whether every answer is checked against its route's schema: in tests, not in service (answer-checks.ts). */
  checkAnswers: boolean
}

/** The whole HTTP surface: one Elysia plugin per area, the OpenAPI document generated from their schemas. */
export function createHttpApp(deps: HttpDependencies) {
  const auth = authentication(deps.useCases.auth.authenticate)
  const limits = rateLimits(deps.rateLimiters, deps.trustProxy)
  const site = requestSite(deps.publicBaseUrl)
  const app = new Elysia({ normalize: false })
    // No answer may be sniffed into another type (a JSON or CSV answer read as HTML): every one says so.
    .onRequest(({ set }) => {
      set.headers['x-content-type-options'] = 'nosniff'
    })
    .use(apiDocs(deps.version, deps.publicBaseUrl))
    .use(observability(deps.accessLog, deps.metrics, deps.metricsToken))
    .use(problemDetails(deps.logger, new DatabaseOutages(deps.persistence, deps.metrics, deps.logger)))
    // The second entry never runs (the first always answers); it tells the OpenAPI generator the bodies are
    // JSON, which it cannot see in a function and would otherwise document every body with no content.
    .onParse({ as: 'global' }, [parseBody, 'json'] as never)
    // While shutting down, every answer closes its connection: the client's next request opens a new one
    // (on another instance) instead of meeting a socket about to close.
    .onRequest(({ set }) => {
      if (deps.lifecycle() === 'stopping') set.headers.connection = 'close'
    })
    .use(healthRoutes(deps.persistence, deps.lifecycle))
    .use(authRoutes(deps.useCases.auth, auth, limits, site, deps.trustProxy))
    .use(sessionCookieRoutes(deps.useCases.auth, auth, limits, site, deps.trustProxy, deps.publicBaseUrl))
    .use(passwordPages(deps.useCases.auth, limits, site, deps.publicBaseUrl))
    .use(forgotPasswordPage(deps.useCases.auth, limits, site))
    .use(confirmEmailPage(deps.useCases.members, limits, site))
    .use(intakePage(deps.useCases.needs, deps.useCases.services.publishedDirectory, limits, site))
    .use(consoleApp())
    .use(needsRoutes(deps.useCases.needs, auth, limits, site, deps.logger))
    .use(messagesRoutes(deps.useCases.sms, auth))
    .use(partnersRoutes(deps.useCases.partners, auth))
    .use(servicesRoutes(deps.useCases.services, auth))
    .use(hsdsRoutes(deps.useCases.services, limits))
    .use(constituentsRoutes(deps.useCases.constituents, auth, deps.logger))
    .use(membersRoutes(deps.useCases.members, auth, limits))
    .use(savedViewsRoutes(deps.useCases.members, auth))
    .use(organizationsRoutes(deps.useCases.organizations, auth, deps.publicBaseUrl))
    .use(quickRepliesRoutes(deps.useCases.organizations, auth))
    .use(developmentOutboxRoutes(deps.useCases.organizations, auth))
    .use(auditRoutes(deps.useCases.audit, auth))
    .use(reportsRoutes(deps.useCases.reports, auth, deps.logger))
    .use(twilioWebhooksRoutes(deps.useCases.sms, deps.publicBaseUrl))
    .use(webhookEndpointsRoutes(deps.useCases.webhooks, auth))
    .use(streamRoutes(deps.useCases.webhooks.stream, auth))
    .use(referralPartnersRoutes(deps.useCases.federation, auth))
    .use(referralsRoutes(deps.useCases.referrals, auth))
    .use(federationRoutes(deps.useCases.federation, limits, site))
  if (!deps.checkAnswers) leaveAnswersUnchecked(app)
  return app
}
