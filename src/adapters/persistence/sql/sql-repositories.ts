import { SqlAuditEventRepository } from './sql-audit-event-repository'
import type { Repositories } from '../../../application/ports/repositories'
import { PreparedStatements } from './prepared-statements'
import type { SqlDialect } from './sql-dialect'
import { SqlConstituentRepository } from './sql-constituent-repository'
import { SqlDailyDigestRepository } from './sql-daily-digest-repository'
import { SqlEmailSettingsRepository } from './sql-email-settings-repository'
import { SqlHouseholdMatchRepository } from './sql-household-match-repository'
import { SqlInteractionRepository } from './sql-interaction-repository'
import { SqlInvitationRepository } from './sql-invitation-repository'
import { SqlLoginAttemptRepository } from './sql-login-attempt-repository'
import { SqlMemberRepository } from './sql-member-repository'
import { SqlNeedRepository } from './sql-need-repository'
import { SqlOrganizationRepository } from './sql-organization-repository'
import { SqlOutboxRepository } from './sql-outbox-repository'
import { SqlPartnerRepository } from './sql-partner-repository'
import { SqlRefreshTokenRepository } from './sql-refresh-token-repository'
import type { SqlDb } from './sql-repository'
import { SqlSmsOptOutRepository } from './sql-sms-opt-out-repository'
import { SqlWebhookEndpointRepository } from './sql-webhook-endpoint-repository'

export type { SqlDb } from './sql-repository'

/**
 * Repositories over one database or transaction, in the given dialect. `statements` are the database's
 * prepared statements: a unit of work gives every transaction's repositories the same ones, so each is
 * built once for the life of the process.
 */
export function sqlRepositories(db: SqlDb, dialect: SqlDialect, statements = new PreparedStatements(dialect.bindStatement)): Repositories {
  return {
    organizations: new SqlOrganizationRepository(db, dialect, statements),
    partners: new SqlPartnerRepository(db, dialect, statements),
    members: new SqlMemberRepository(db, dialect, statements),
    needs: new SqlNeedRepository(db, dialect, statements),
    interactions: new SqlInteractionRepository(db, dialect, statements),
    constituents: new SqlConstituentRepository(db, dialect, statements),
    householdMatches: new SqlHouseholdMatchRepository(db, dialect, statements),
    refreshTokens: new SqlRefreshTokenRepository(db, dialect, statements),
    loginAttempts: new SqlLoginAttemptRepository(db, dialect, statements),
    invitations: new SqlInvitationRepository(db, dialect, statements),
    emailSettings: new SqlEmailSettingsRepository(db, dialect, statements),
    outbox: new SqlOutboxRepository(db, dialect, statements),
    smsOptOuts: new SqlSmsOptOutRepository(db, dialect, statements),
    webhookEndpoints: new SqlWebhookEndpointRepository(db, dialect, statements),
    auditEvents: new SqlAuditEventRepository(db, dialect, statements),
    dailyDigests: new SqlDailyDigestRepository(db, dialect, statements),
  }
}
