import type { AuditEventRepository } from './audit-event-repository'
import type { ConstituentRepository } from './constituent-repository'
import type { DailyDigestRepository } from './daily-digest-repository'
import type { DevelopmentOutboxRepository } from './development-outbox-repository'
import type { EmailSettingsRepository } from './email-settings-repository'
import type { HouseholdMatchRepository } from './household-match-repository'
import type { IdempotencyKeyRepository } from './idempotency-key-repository'
import type { InteractionRepository } from './interaction-repository'
import type { InvitationRepository } from './invitation-repository'
import type { LiveEventRepository } from './live-event-repository'
import type { LoginAttemptRepository } from './login-attempt-repository'
import type { MemberRepository } from './member-repository'
import type { NeedRepository } from './need-repository'
import type { NeedReportRepository } from './need-report-repository'
import type { OrganizationRepository } from './organization-repository'
import type { OutboxRepository } from './outbox-repository'
import type { PartnerRepository } from './partner-repository'
import type { RefreshTokenRepository } from './refresh-token-repository'
import type { SavedViewRepository } from './saved-view-repository'
import type { ServiceRepository } from './service-repository'
import type { SmsOptOutRepository } from './sms-opt-out-repository'
import type { TaxonomyTermRepository } from './taxonomy-term-repository'
import type { WebhookEndpointRepository } from './webhook-endpoint-repository'
import type { FederationRepository } from './federation-repository'
import type { ReferralPartnerRepository } from './referral-partner-repository'
import type { ReferralRepository } from './referral-repository'

/** What a ConflictError says when a write would break a uniqueness rule: the same words from every store. */
export const UNIQUE_CONFLICTS = {
  organizationSlug: 'The slug is taken by another organization',
  organizationShortCode: 'The short code is taken by another organization',
  organizationPhoneNumber: 'The phone number belongs to another organization',
  memberEmail: 'A member with this email already exists in the organization',
  providerMessageId: 'Another interaction already has this provider message id',
  idempotencyKey: 'A request with this Idempotency-Key was recorded already',
  savedViewName: 'You have a saved view with this name already',
} as const

/**
 * The persistence ports, one file per aggregate beside this one. Every read and write names the
 * organization it belongs to: a repository never returns another organization's record. Any SQL database
 * (or memory) can serve them.
 */
export interface Repositories {
  organizations: OrganizationRepository
  partners: PartnerRepository
  members: MemberRepository
  needs: NeedRepository
  needReports: NeedReportRepository
  interactions: InteractionRepository
  constituents: ConstituentRepository
  householdMatches: HouseholdMatchRepository
  refreshTokens: RefreshTokenRepository
  loginAttempts: LoginAttemptRepository
  invitations: InvitationRepository
  emailSettings: EmailSettingsRepository
  outbox: OutboxRepository
  smsOptOuts: SmsOptOutRepository
  webhookEndpoints: WebhookEndpointRepository
  liveEvents: LiveEventRepository
  auditEvents: AuditEventRepository
  dailyDigests: DailyDigestRepository
  idempotencyKeys: IdempotencyKeyRepository
  savedViews: SavedViewRepository
  services: ServiceRepository
  taxonomyTerms: TaxonomyTermRepository
  developmentOutbox: DevelopmentOutboxRepository
  referrals: ReferralRepository
  referralPartners: ReferralPartnerRepository
  federation: FederationRepository
}
