import { SqlAuditEventRepository } from './sql-audit-event-repository'
import { SqlSavedViewRepository } from './sql-saved-view-repository'
import { SqlServiceRepository } from './sql-service-repository'
import { SqlReferralRepository } from './sql-referral-repository'
import { SqlTaxonomyTermRepository } from './sql-taxonomy-term-repository'
import type { Repositories } from '../../../application/ports/repositories'
import { PreparedStatements } from './prepared-statements'
import type { SqlDialect } from './sql-dialect'
import { SqlConstituentRepository } from './sql-constituent-repository'
import { SqlDevelopmentOutboxRepository } from './sql-development-outbox-repository'
import { SqlDailyDigestRepository } from './sql-daily-digest-repository'
import { SqlEmailSettingsRepository } from './sql-email-settings-repository'
import { SqlHouseholdMatchRepository } from './sql-household-match-repository'
import { SqlIdempotencyKeyRepository } from './sql-idempotency-key-repository'
import { SqlInteractionRepository } from './sql-interaction-repository'
import { SqlInvitationRepository } from './sql-invitation-repository'
import { SqlLiveEventRepository } from './sql-live-event-repository'
import { SqlLoginAttemptRepository } from './sql-login-attempt-repository'
import { SqlMemberRepository } from './sql-member-repository'
import { SqlNeedRepository } from './sql-need-repository'
import { SqlNeedReportRepository } from './sql-need-report-repository'
import { SqlOrganizationRepository } from './sql-organization-repository'
import { SqlOutboxRepository } from './sql-outbox-repository'
import { SqlPartnerRepository } from './sql-partner-repository'
import { SqlRefreshTokenRepository } from './sql-refresh-token-repository'
import type { SqlDb } from './sql-repository'
import { SqlSmsOptOutRepository } from './sql-sms-opt-out-repository'
import { SqlWebhookEndpointRepository } from './sql-webhook-endpoint-repository'
import { AWAITED_WRITES, type UnreadWrites } from './unread-writes'
import { SqlFederationRepository, SqlReferralPartnerRepository } from './sql-federation-repository'

export type { SqlDb } from './sql-repository'

/**
 * Repositories over one database or transaction, in the given dialect. `statements` are the database's
 * prepared statements: a unit of work gives every transaction's repositories the same ones, so each is
 * built once for the life of the process. `writes` settles the writes whose results nobody reads
 * (a PostgreSQL transaction sends them on with what follows; elsewhere each is awaited).
 */
export function sqlRepositories(
  db: SqlDb,
  dialect: SqlDialect,
  statements = new PreparedStatements(dialect.bindStatement),
  writes: UnreadWrites = AWAITED_WRITES,
): Repositories {
  const on = [db, dialect, statements, writes] as const
  return {
    organizations: new SqlOrganizationRepository(...on),
    partners: new SqlPartnerRepository(...on),
    members: new SqlMemberRepository(...on),
    needs: new SqlNeedRepository(...on),
    needReports: new SqlNeedReportRepository(...on),
    interactions: new SqlInteractionRepository(...on),
    constituents: new SqlConstituentRepository(...on),
    householdMatches: new SqlHouseholdMatchRepository(...on),
    refreshTokens: new SqlRefreshTokenRepository(...on),
    loginAttempts: new SqlLoginAttemptRepository(...on),
    invitations: new SqlInvitationRepository(...on),
    emailSettings: new SqlEmailSettingsRepository(...on),
    outbox: new SqlOutboxRepository(...on),
    smsOptOuts: new SqlSmsOptOutRepository(...on),
    webhookEndpoints: new SqlWebhookEndpointRepository(...on),
    auditEvents: new SqlAuditEventRepository(...on),
    dailyDigests: new SqlDailyDigestRepository(...on),
    savedViews: new SqlSavedViewRepository(...on),
    services: new SqlServiceRepository(...on),
    taxonomyTerms: new SqlTaxonomyTermRepository(...on),
    idempotencyKeys: new SqlIdempotencyKeyRepository(...on),
    liveEvents: new SqlLiveEventRepository(...on),
    developmentOutbox: new SqlDevelopmentOutboxRepository(...on),
    referralPartners: new SqlReferralPartnerRepository(...on),
    federation: new SqlFederationRepository(...on),
    referrals: new SqlReferralRepository(...on),
  }
}
