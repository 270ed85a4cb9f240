import { MemoryAuditEventRepository } from './memory-audit-event-repository'
import { MemorySavedViewRepository } from './memory-saved-view-repository'
import { MemoryServiceRepository } from './memory-service-repository'
import { MemoryReferralRepository } from './memory-referral-repository'
import { MemoryTaxonomyTermRepository } from './memory-taxonomy-term-repository'
import type { Repositories } from '../../../application/ports/repositories'
import type { MemoryStore } from './memory-store'
import { MemoryConstituentRepository } from './memory-constituent-repository'
import { MemoryDevelopmentOutboxRepository } from './memory-development-outbox-repository'
import { MemoryDailyDigestRepository } from './memory-daily-digest-repository'
import { MemoryEmailSettingsRepository } from './memory-email-settings-repository'
import { MemoryHouseholdMatchRepository } from './memory-household-match-repository'
import { MemoryIdempotencyKeyRepository } from './memory-idempotency-key-repository'
import { MemoryInteractionRepository } from './memory-interaction-repository'
import { MemoryInvitationRepository } from './memory-invitation-repository'
import { MemoryLiveEventRepository } from './memory-live-event-repository'
import { MemoryLoginAttemptRepository } from './memory-login-attempt-repository'
import { MemoryMemberRepository } from './memory-member-repository'
import { MemoryNeedRepository } from './memory-need-repository'
import { MemoryNeedReportRepository } from './memory-need-report-repository'
import { MemoryOrganizationRepository } from './memory-organization-repository'
import { MemoryOutboxRepository } from './memory-outbox-repository'
import { MemoryPartnerRepository } from './memory-partner-repository'
import { MemoryRefreshTokenRepository } from './memory-refresh-token-repository'
import { MemorySmsOptOutRepository } from './memory-sms-opt-out-repository'
import { MemoryWebhookEndpointRepository } from './memory-webhook-endpoint-repository'
import { MemoryFederationRepository, MemoryReferralPartnerRepository } from './memory-federation-repository'

/** Repositories over one store: the committed one for reads, a transaction's draft for writes. */
export function memoryRepositories(store: MemoryStore): Repositories {
  return {
    organizations: new MemoryOrganizationRepository(store),
    partners: new MemoryPartnerRepository(store),
    members: new MemoryMemberRepository(store),
    needs: new MemoryNeedRepository(store),
    needReports: new MemoryNeedReportRepository(store),
    interactions: new MemoryInteractionRepository(store),
    constituents: new MemoryConstituentRepository(store),
    householdMatches: new MemoryHouseholdMatchRepository(store),
    refreshTokens: new MemoryRefreshTokenRepository(store),
    loginAttempts: new MemoryLoginAttemptRepository(store),
    invitations: new MemoryInvitationRepository(store),
    emailSettings: new MemoryEmailSettingsRepository(store),
    outbox: new MemoryOutboxRepository(store),
    smsOptOuts: new MemorySmsOptOutRepository(store),
    webhookEndpoints: new MemoryWebhookEndpointRepository(store),
    auditEvents: new MemoryAuditEventRepository(store),
    dailyDigests: new MemoryDailyDigestRepository(store),
    savedViews: new MemorySavedViewRepository(store),
    services: new MemoryServiceRepository(store),
    taxonomyTerms: new MemoryTaxonomyTermRepository(store),
    referralPartners: new MemoryReferralPartnerRepository(store),
    federation: new MemoryFederationRepository(store),
    referrals: new MemoryReferralRepository(store),
    idempotencyKeys: new MemoryIdempotencyKeyRepository(store),
    liveEvents: new MemoryLiveEventRepository(store),
    developmentOutbox: new MemoryDevelopmentOutboxRepository(store),
  }
}
