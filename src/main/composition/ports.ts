import type { ServiceIdentifier } from 'inversify'
import type { DispatchOptions } from '../../application/messaging/dispatch-outbox'
import type { EmailSenders } from '../../application/messaging/organization-mailer'
import type { AccessTokens } from '../../application/ports/access-tokens'
import type { Clock } from '../../application/ports/clock'
import type { CurrentRequest } from '../../application/ports/current-request'
import type { EmailHostPolicy, FallbackEmailSender } from '../../application/ports/email'
import type { IdGenerator } from '../../application/ports/ids'
import type { LiveEventFeed } from '../../application/ports/live-event-feed'
import type { Logger } from '../../application/ports/logger'
import type { PasswordHasher } from '../../application/ports/password-hasher'
import type { Persistence } from '../../application/ports/persistence'
import type { RateLimiter } from '../../application/ports/rate-limiter'
import type { Repositories } from '../../application/ports/repositories'
import type { SecretBox } from '../../application/ports/secret-box'
import type { SecretTokens } from '../../application/ports/secret-tokens'
import type { SmsSender, SmsWebhookVerifier } from '../../application/ports/sms'
import type { UnitOfWork } from '../../application/ports/unit-of-work'
import type { WebhookHostPolicy, WebhookSecrets, WebhookSender } from '../../application/ports/webhooks'
import type { FederationKeys, FederationTransport } from '../../application/ports/federation'
import type { AccessLog } from '../../adapters/http/observability'
import type { PrometheusMetrics } from '../../adapters/metrics/prometheus-metrics'
import type { InProcessDeferredWork } from '../../adapters/system/in-process-deferred-work'
import type { SendLimits } from '../../domain/messaging/send-limits'
import type { Config } from '../config'

/** Typed names of the ports; the composition modules are the only place that knows which adapter serves each. */
function port<T>(name: string): ServiceIdentifier<T> {
  return Symbol.for(`port:${name}`)
}

export const PORTS = {
  config: port<Config>('Config'),
  clock: port<Clock>('Clock'),
  ids: port<IdGenerator>('IdGenerator'),
  logger: port<Logger>('Logger'),
  accessLog: port<AccessLog>('AccessLog'),
  persistence: port<Persistence>('Persistence'),
  repositories: port<Repositories>('Repositories'),
  unitOfWork: port<UnitOfWork>('UnitOfWork'),
  passwords: port<PasswordHasher>('PasswordHasher'),
  accessTokens: port<AccessTokens>('AccessTokens'),
  secrets: port<SecretTokens>('SecretTokens'),
  publicIntakeRateLimiter: port<RateLimiter>('PublicIntakeRateLimiter'),
  publicDirectoryRateLimiter: port<RateLimiter>('PublicDirectoryRateLimiter'),
  authRateLimiter: port<RateLimiter>('AuthRateLimiter'),
  federationRateLimiter: port<RateLimiter>('FederationRateLimiter'),
  secretBox: port<SecretBox>('SecretBox'),
  emailSenders: port<EmailSenders>('EmailSenders'),
  fallbackEmail: port<FallbackEmailSender>('FallbackEmailSender'),
  emailHosts: port<EmailHostPolicy>('EmailHostPolicy'),
  publicBaseUrl: port<string>('PublicBaseUrl'),
  sendLimits: port<SendLimits>('SendLimits'),
  deferredWork: port<InProcessDeferredWork>('DeferredWork'),
  sms: port<SmsSender>('SmsSender'),
  smsWebhooks: port<SmsWebhookVerifier>('SmsWebhookVerifier'),
  dispatchOptions: port<DispatchOptions>('DispatchOptions'),
  metrics: port<PrometheusMetrics>('Metrics'),
  senderNumberRequired: port<boolean>('SenderNumberRequired'),
  webhookSender: port<WebhookSender>('WebhookSender'),
  webhookHosts: port<WebhookHostPolicy>('WebhookHostPolicy'),
  webhookSecrets: port<WebhookSecrets>('WebhookSecrets'),
  federationKeys: port<FederationKeys>('FederationKeys'),
  federationTransport: port<FederationTransport>('FederationTransport'),
  currentRequest: port<CurrentRequest>('CurrentRequest'),
  liveEventFeed: port<LiveEventFeed>('LiveEventFeed'),
}
