import 'reflect-metadata'
import { Container, type ServiceIdentifier } from 'inversify'
import { AuditTrail } from '../application/audit/audit-trail'
import { ListAuditEvents } from '../application/audit/list-audit-events'
import { PurgeAuditEvents } from '../application/audit/purge-audit-events'
import type { CurrentRequest } from '../application/ports/current-request'
import { currentRequest } from '../adapters/system/request-context'
import { Authenticate } from '../application/auth/authenticate'
import { Login } from '../application/auth/login'
import { Logout } from '../application/auth/logout'
import { RefreshSession } from '../application/auth/refresh-session'
import { TokenPairIssuer } from '../application/auth/token-pair'
import { ConstituentMerger } from '../application/constituents/constituent-merger'
import { ConstituentRegistry } from '../application/constituents/constituent-registry'
import { CreateConstituent } from '../application/constituents/create-constituent'
import { DuplicateDetection } from '../application/constituents/duplicate-detection'
import { GetConstituent } from '../application/constituents/get-constituent'
import { ListConstituentNeeds } from '../application/constituents/list-constituent-needs'
import { ListHouseholdMatches } from '../application/constituents/list-household-matches'
import { MergeConstituents } from '../application/constituents/merge-constituents'
import { ResolveHouseholdMatch } from '../application/constituents/resolve-household-match'
import { SearchConstituents } from '../application/constituents/search-constituents'
import { ExportConstituents } from '../application/constituents/export-constituents'
import { UpdateConstituent } from '../application/constituents/update-constituent'
import { AcceptInvite } from '../application/auth/accept-invite'
import { PasswordResetLinks, RequestPasswordReset, ResetPassword } from '../application/auth/password-reset'
import { InvitationMailer } from '../application/members/invitation-mailer'
import { InviteMember } from '../application/members/invite-member'
import { ResendInvitation } from '../application/members/resend-invitation'
import { ListMembers } from '../application/members/list-members'
import { UpdateMember } from '../application/members/update-member'
import { DispatchOutbox, type DispatchOptions } from '../application/messaging/dispatch-outbox'
import type { SmsSender, SmsWebhookVerifier } from '../application/ports/sms'
import { ReceiveSms } from '../application/sms/receive-sms'
import { RecordSmsStatus } from '../application/sms/record-sms-status'
import { SendSms } from '../application/sms/send-sms'
import { LogSmsSender } from '../adapters/messaging/log-sms-sender'
import { TwilioSmsSender, TwilioWebhookVerifier } from '../adapters/messaging/twilio-sms-sender'
import { OrganizationMailer, type EmailSenders } from '../application/messaging/organization-mailer'
import { Outbox } from '../application/messaging/outbox'
import { GetEmailSettings, SendTestEmail, UpdateEmailSettings } from '../application/organizations/email-settings'
import { GetOrganizationSettings, UpdateOrganizationSettings } from '../application/organizations/organization-settings'
import type { EmailHostPolicy, FallbackEmailSender } from '../application/ports/email'
import type { SecretBox } from '../application/ports/secret-box'
import { GetProfile, UpdateProfile } from '../application/profile/profile'
import { LogEmailSender } from '../adapters/messaging/log-email-sender'
import { PostmarkEmailSender } from '../adapters/messaging/postmark-email-sender'
import { SendgridEmailSender } from '../adapters/messaging/sendgrid-email-sender'
import { SesEmailSender } from '../adapters/messaging/ses-email-sender'
import { SmtpEmailSender } from '../adapters/messaging/smtp-email-sender'
import { OutboundHostPolicy, SmtpHostPolicy } from '../adapters/messaging/smtp-host-policy'
import { HttpWebhookSender, StandardWebhookSecrets } from '../adapters/messaging/http-webhook-sender'
import type { WebhookHostPolicy, WebhookSecrets, WebhookSender } from '../application/ports/webhooks'
import { ListWebhookDeliveries } from '../application/webhooks/list-webhook-deliveries'
import { WebhookDelivery } from '../application/webhooks/webhook-delivery'
import { WebhookEvents } from '../application/webhooks/webhook-events'
import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  GetWebhookEndpoint,
  ListWebhookEndpoints,
  UpdateWebhookEndpoint,
} from '../application/webhooks/webhook-endpoints'
import { AesGcmSecretBox } from '../adapters/security/aes-gcm-secret-box'
import { SetMemberPassword } from '../application/members/set-member-password'
import { AddNote } from '../application/needs/add-note'
import { CreateNeed } from '../application/needs/create-need'
import { GetNeed } from '../application/needs/get-need'
import { ListNeedHistory } from '../application/needs/list-need-history'
import { ListNeedInteractions } from '../application/needs/list-need-interactions'
import { ListNeeds } from '../application/needs/list-needs'
import { ExportNeeds } from '../application/needs/export-needs'
import { NeedIntake } from '../application/needs/need-intake'
import { SubmitPublicNeed } from '../application/needs/submit-public-need'
import { GetPublicIntakeForm } from '../application/needs/get-public-intake-form'
import { UpdateNeed } from '../application/needs/update-need'
import { CreateOrganization } from '../application/organizations/create-organization'
import { SetOrganizationPhoneNumber } from '../application/organizations/set-organization-phone-number'
import { CreatePartner } from '../application/partners/create-partner'
import { ListPartners } from '../application/partners/list-partners'
import { UpdatePartner } from '../application/partners/update-partner'
import type { Clock } from '../application/ports/clock'
import type { IdGenerator } from '../application/ports/ids'
import type { Logger } from '../application/ports/logger'
import type { Persistence } from '../application/ports/persistence'
import type { Repositories } from '../application/ports/repositories'
import type { AccessTokens } from '../application/ports/access-tokens'
import type { PasswordHasher } from '../application/ports/password-hasher'
import type { RateLimiter } from '../application/ports/rate-limiter'
import type { SecretTokens } from '../application/ports/secret-tokens'
import type { UnitOfWork } from '../application/ports/unit-of-work'
import { MemoryPersistence } from '../adapters/persistence/memory/memory-persistence'
import { PostgresDatabase } from '../adapters/persistence/postgres/postgres-database'
import { SqliteDatabase } from '../adapters/persistence/sqlite/sqlite-database'
import { Argon2PasswordHasher } from '../adapters/security/argon2-password-hasher'
import { HmacAccessTokens } from '../adapters/security/hmac-access-tokens'
import { MemoryRateLimiter } from '../adapters/security/memory-rate-limiter'
import { RandomSecretTokens } from '../adapters/security/random-secret-tokens'
import { InProcessDeferredWork } from '../adapters/system/in-process-deferred-work'
import { PinoLogger } from '../adapters/system/pino-logger'
import { PrometheusMetrics } from '../adapters/metrics/prometheus-metrics'
import { RandomIds } from '../adapters/system/random-ids'
import { SystemClock } from '../adapters/system/system-clock'
import type { UseCases } from '../application/use-cases'
import type { Config } from './config'
import type { SendLimits } from '../domain/messaging/send-limits'

/** Typed names of the ports; the container is the only place that knows which adapter serves each. */
function port<T>(name: string): ServiceIdentifier<T> {
  return Symbol.for(`port:${name}`)
}

export const PORTS = {
  config: port<Config>('Config'),
  clock: port<Clock>('Clock'),
  ids: port<IdGenerator>('IdGenerator'),
  logger: port<Logger>('Logger'),
  persistence: port<Persistence>('Persistence'),
  repositories: port<Repositories>('Repositories'),
  unitOfWork: port<UnitOfWork>('UnitOfWork'),
  passwords: port<PasswordHasher>('PasswordHasher'),
  accessTokens: port<AccessTokens>('AccessTokens'),
  secrets: port<SecretTokens>('SecretTokens'),
  publicIntakeRateLimiter: port<RateLimiter>('PublicIntakeRateLimiter'),
  authRateLimiter: port<RateLimiter>('AuthRateLimiter'),
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
  currentRequest: port<CurrentRequest>('CurrentRequest'),
}

/** What tests may swap: a fixed clock, predictable ids, cheap password hashing, captured logs. */
export interface ContainerOverrides {
  clock?: Clock
  ids?: IdGenerator
  passwords?: PasswordHasher
  logger?: Logger
}

/** The configured database, not yet migrated (see Persistence.migrate). */
export function createPersistence(config: Config, logger: Logger): Persistence {
  switch (config.database.kind) {
    case 'memory':
      return new MemoryPersistence()
    case 'sqlite':
      return new SqliteDatabase(config.database.path, { logger })
    case 'postgres':
      return new PostgresDatabase(config.database.url)
  }
}

export function createContainer(config: Config, overrides: ContainerOverrides = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' })
  const clock = overrides.clock ?? new SystemClock()
  const logger = overrides.logger ?? new PinoLogger(config.logLevel)
  const persistence = createPersistence(config, logger)
  c.bind(PORTS.config).toConstantValue(config)
  c.bind(PORTS.clock).toConstantValue(clock)
  c.bind(PORTS.ids).toConstantValue(overrides.ids ?? new RandomIds(clock))
  c.bind(PORTS.logger).toConstantValue(logger)
  c.bind(PORTS.persistence).toConstantValue(persistence)
  c.bind(PORTS.repositories).toConstantValue(persistence.repositories)
  c.bind(PORTS.unitOfWork).toConstantValue(persistence.unitOfWork)
  const walBytes = persistence instanceof SqliteDatabase ? () => persistence.walBytes() : undefined // the SQLite log's gauge
  c.bind(PORTS.metrics).toConstantValue(new PrometheusMetrics(() => persistence.repositories.outbox.backlog(), walBytes))
  c.bind(PORTS.passwords).toConstantValue(overrides.passwords ?? new Argon2PasswordHasher())
  c.bind(PORTS.accessTokens).toConstantValue(new HmacAccessTokens(config.jwtSecret, clock))
  c.bind(PORTS.secrets).toConstantValue(new RandomSecretTokens())
  c.bind(PORTS.publicIntakeRateLimiter).toConstantValue(new MemoryRateLimiter(config.publicIntakeRateLimit, clock))
  c.bind(PORTS.authRateLimiter).toConstantValue(new MemoryRateLimiter(config.authRateLimit, clock))
  c.bind(PORTS.secretBox).toConstantValue(new AesGcmSecretBox(config.dataEncryptionKey))
  const emailHosts = new SmtpHostPolicy({ allowedHosts: config.emailAllowedHosts, blockPrivate: config.emailBlockPrivateHosts })
  c.bind(PORTS.emailHosts).toConstantValue(emailHosts)
  c.bind(PORTS.emailSenders).toConstantValue({
    smtp: new SmtpEmailSender(emailHosts),
    postmark: new PostmarkEmailSender(),
    ses: new SesEmailSender(clock),
    sendgrid: new SendgridEmailSender(),
  })
  const webhooks = new HttpWebhookSender(new OutboundHostPolicy({ allowedHosts: config.webhookAllowedHosts, blockPrivate: config.webhookBlockPrivateHosts }))
  c.bind(PORTS.webhookSender).toConstantValue(webhooks)
  c.bind(PORTS.webhookHosts).toConstantValue(webhooks)
  c.bind(PORTS.webhookSecrets).toConstantValue(new StandardWebhookSecrets())
  c.bind(PORTS.fallbackEmail).toResolvedValue((logger: Logger) => new LogEmailSender(logger), [PORTS.logger])
  c.bind(PORTS.publicBaseUrl).toConstantValue(config.publicBaseUrl)
  c.bind(PORTS.sendLimits).toConstantValue(config.sendLimits)
  c.bind(PORTS.deferredWork).toConstantValue(new InProcessDeferredWork(logger))
  const twilio = config.sms.provider === 'twilio' ? { sid: config.sms.accountSid!, token: config.sms.authToken! } : undefined
  c.bind(PORTS.sms).toResolvedValue(
    (logger: Logger) => (twilio ? new TwilioSmsSender(twilio.sid, twilio.token, config.sms.apiBaseUrl) : new LogSmsSender(logger)),
    [PORTS.logger],
  )
  // Without Twilio's auth token no webhook can prove where it comes from: every one is refused.
  c.bind(PORTS.smsWebhooks).toConstantValue(
    config.sms.authToken ? new TwilioWebhookVerifier(config.sms.authToken) : { isAuthentic: () => false },
  )
  c.bind(PORTS.senderNumberRequired).toConstantValue(twilio !== undefined)
  c.bind(PORTS.dispatchOptions).toConstantValue({
    leaseMs: config.outboxLeaseMs,
    smsStatusCallbackUrl: `${config.publicBaseUrl}/api/webhooks/twilio/status`,
  })

  const { repositories, unitOfWork, passwords, accessTokens, secrets, ids } = PORTS
  c.bind(PORTS.currentRequest).toConstantValue(currentRequest)
  service(c, AuditTrail, [unitOfWork, PORTS.clock, ids, PORTS.currentRequest])
  service(c, ListAuditEvents, [repositories])
  service(c, PurgeAuditEvents, [repositories, unitOfWork, PORTS.clock])
  service(c, TokenPairIssuer, [accessTokens, secrets, PORTS.clock, ids])
  service(c, DuplicateDetection, [PORTS.clock, ids])
  service(c, ConstituentRegistry, [DuplicateDetection, PORTS.clock, ids, WebhookEvents])
  service(c, ConstituentMerger, [PORTS.clock, DuplicateDetection, WebhookEvents, AuditTrail])
  service(c, NeedIntake, [ConstituentRegistry, PORTS.clock, ids, WebhookEvents, AuditTrail])
  service(c, Authenticate, [repositories, accessTokens])
  service(c, Login, [repositories, unitOfWork, passwords, TokenPairIssuer, PORTS.clock, AuditTrail])
  service(c, RefreshSession, [unitOfWork, secrets, TokenPairIssuer, PORTS.clock])
  service(c, Logout, [unitOfWork, secrets, PORTS.clock, AuditTrail])
  service(c, CreateOrganization, [unitOfWork, passwords, PORTS.clock, ids, AuditTrail])
  service(c, SetMemberPassword, [unitOfWork, passwords, AuditTrail])
  service(c, CreateNeed, [unitOfWork, NeedIntake, AuditTrail])
  service(c, SubmitPublicNeed, [repositories, unitOfWork, NeedIntake])
  service(c, GetPublicIntakeForm, [repositories])
  service(c, ListNeeds, [repositories])
  service(c, ExportNeeds, [repositories, AuditTrail])
  service(c, GetNeed, [repositories])
  service(c, UpdateNeed, [unitOfWork, PORTS.clock, ids, WebhookEvents, AuditTrail])
  service(c, AddNote, [unitOfWork, PORTS.clock, ids, WebhookEvents, AuditTrail])
  service(c, ListNeedInteractions, [repositories])
  service(c, ListNeedHistory, [repositories])
  service(c, ListPartners, [repositories])
  service(c, CreatePartner, [unitOfWork, PORTS.clock, ids, AuditTrail])
  service(c, UpdatePartner, [unitOfWork, AuditTrail])
  service(c, Outbox, [PORTS.clock, ids])
  service(c, OrganizationMailer, [repositories, PORTS.secretBox, PORTS.emailSenders, PORTS.fallbackEmail])
  service(c, WebhookEvents, [Outbox, PORTS.clock])
  service(c, WebhookDelivery, [repositories, PORTS.secretBox, PORTS.webhookSender, PORTS.clock])
  service(c, DispatchOutbox, [unitOfWork, OrganizationMailer, PORTS.sms, PORTS.clock, PORTS.logger, PORTS.dispatchOptions, PORTS.metrics, WebhookDelivery, WebhookEvents])
  service(c, CreateWebhookEndpoint, [unitOfWork, PORTS.secretBox, PORTS.webhookSecrets, PORTS.webhookHosts, PORTS.clock, ids, AuditTrail])
  service(c, ListWebhookEndpoints, [repositories])
  service(c, GetWebhookEndpoint, [repositories])
  service(c, UpdateWebhookEndpoint, [unitOfWork, PORTS.webhookHosts, PORTS.clock, AuditTrail])
  service(c, DeleteWebhookEndpoint, [unitOfWork, AuditTrail])
  service(c, ListWebhookDeliveries, [repositories])
  service(c, SendSms, [unitOfWork, Outbox, PORTS.clock, ids, PORTS.senderNumberRequired, AuditTrail, PORTS.sendLimits])
  service(c, ReceiveSms, [unitOfWork, PORTS.smsWebhooks, PORTS.clock, ids, PORTS.logger, WebhookEvents, AuditTrail])
  service(c, RecordSmsStatus, [unitOfWork, PORTS.smsWebhooks, PORTS.clock, WebhookEvents, AuditTrail])
  service(c, SetOrganizationPhoneNumber, [unitOfWork, AuditTrail])
  service(c, InvitationMailer, [Outbox, secrets, PORTS.clock, ids, PORTS.publicBaseUrl])
  service(c, InviteMember, [unitOfWork, InvitationMailer, PORTS.clock, ids, AuditTrail])
  service(c, ResendInvitation, [unitOfWork, InvitationMailer, AuditTrail])
  service(c, UpdateMember, [unitOfWork, AuditTrail])
  service(c, ListMembers, [repositories])
  service(c, AcceptInvite, [unitOfWork, passwords, secrets, TokenPairIssuer, PORTS.clock, AuditTrail])
  service(c, PasswordResetLinks, [unitOfWork, Outbox, secrets, PORTS.clock, ids, PORTS.publicBaseUrl, AuditTrail, PORTS.sendLimits])
  service(c, RequestPasswordReset, [PORTS.deferredWork, PasswordResetLinks])
  service(c, ResetPassword, [unitOfWork, passwords, secrets, TokenPairIssuer, PORTS.clock, AuditTrail])
  service(c, GetProfile, [repositories])
  service(c, UpdateProfile, [unitOfWork, AuditTrail])
  service(c, GetOrganizationSettings, [repositories])
  service(c, UpdateOrganizationSettings, [unitOfWork, AuditTrail])
  service(c, GetEmailSettings, [repositories])
  service(c, UpdateEmailSettings, [unitOfWork, PORTS.secretBox, PORTS.clock, PORTS.emailHosts, AuditTrail])
  service(c, SendTestEmail, [OrganizationMailer, PORTS.emailHosts])
  service(c, CreateConstituent, [unitOfWork, ConstituentRegistry, AuditTrail])
  service(c, UpdateConstituent, [unitOfWork, DuplicateDetection, PORTS.clock, AuditTrail])
  service(c, SearchConstituents, [repositories, AuditTrail])
  service(c, ExportConstituents, [repositories, AuditTrail])
  service(c, GetConstituent, [repositories, AuditTrail])
  service(c, ListConstituentNeeds, [repositories])
  service(c, MergeConstituents, [unitOfWork, ConstituentMerger])
  service(c, ListHouseholdMatches, [repositories, AuditTrail])
  service(c, ResolveHouseholdMatch, [unitOfWork, ConstituentMerger, PORTS.clock, WebhookEvents, AuditTrail])
  return c
}

/** Binds a use case (or application service) to its constructor, fed with the listed ports. */
function service<T, A extends unknown[]>(
  c: Container,
  type: new (...args: A) => T,
  dependencies: { [K in keyof A]: ServiceIdentifier<A[K]> },
): void {
  c.bind(type).toResolvedValue((...args: A) => new type(...args), dependencies as never)
}

/** Every use case the edges need, resolved once, by area. */
export function useCasesOf(c: Container): UseCases {
  return {
    auth: {
      authenticate: c.get(Authenticate),
      login: c.get(Login),
      refresh: c.get(RefreshSession),
      logout: c.get(Logout),
      acceptInvite: c.get(AcceptInvite),
      requestPasswordReset: c.get(RequestPasswordReset),
      resetPassword: c.get(ResetPassword),
    },
    constituents: {
      search: c.get(SearchConstituents),
      export: c.get(ExportConstituents),
      get: c.get(GetConstituent),
      create: c.get(CreateConstituent),
      update: c.get(UpdateConstituent),
      listNeeds: c.get(ListConstituentNeeds),
      merge: c.get(MergeConstituents),
      listMatches: c.get(ListHouseholdMatches),
      resolve: c.get(ResolveHouseholdMatch),
    },
    members: {
      invite: c.get(InviteMember),
      update: c.get(UpdateMember),
      resend: c.get(ResendInvitation),
      list: c.get(ListMembers),
      getProfile: c.get(GetProfile),
      updateProfile: c.get(UpdateProfile),
    },
    needs: {
      create: c.get(CreateNeed),
      submitPublic: c.get(SubmitPublicNeed),
      getPublicForm: c.get(GetPublicIntakeForm),
      list: c.get(ListNeeds),
      export: c.get(ExportNeeds),
      get: c.get(GetNeed),
      update: c.get(UpdateNeed),
      addNote: c.get(AddNote),
      listInteractions: c.get(ListNeedInteractions),
      listHistory: c.get(ListNeedHistory),
      sendSms: c.get(SendSms),
    },
    organizations: {
      getSettings: c.get(GetOrganizationSettings),
      updateSettings: c.get(UpdateOrganizationSettings),
      getEmail: c.get(GetEmailSettings),
      updateEmail: c.get(UpdateEmailSettings),
      testEmail: c.get(SendTestEmail),
    },
    audit: {
      list: c.get(ListAuditEvents),
    },
    partners: {
      list: c.get(ListPartners),
      create: c.get(CreatePartner),
      update: c.get(UpdatePartner),
    },
    sms: {
      receive: c.get(ReceiveSms),
      recordStatus: c.get(RecordSmsStatus),
    },
    webhooks: {
      create: c.get(CreateWebhookEndpoint),
      list: c.get(ListWebhookEndpoints),
      get: c.get(GetWebhookEndpoint),
      update: c.get(UpdateWebhookEndpoint),
      delete: c.get(DeleteWebhookEndpoint),
      listDeliveries: c.get(ListWebhookDeliveries),
    },
    operations: {
      createOrganization: c.get(CreateOrganization),
      setOrganizationPhoneNumber: c.get(SetOrganizationPhoneNumber),
      setMemberPassword: c.get(SetMemberPassword),
      dispatchOutbox: c.get(DispatchOutbox),
      purgeAuditEvents: c.get(PurgeAuditEvents),
    },
  }
}
