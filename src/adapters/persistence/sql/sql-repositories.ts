import type { Repositories } from '../../../application/ports/repositories'
import type { SqlDialect } from './sql-dialect'
import { SqlConstituentRepository } from './sql-constituent-repository'
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

export type { SqlDb } from './sql-repository'

/** Repositories over one database or transaction, in the given dialect. */
export function sqlRepositories(db: SqlDb, dialect: SqlDialect): Repositories {
  return {
    organizations: new SqlOrganizationRepository(db, dialect),
    partners: new SqlPartnerRepository(db, dialect),
    members: new SqlMemberRepository(db, dialect),
    needs: new SqlNeedRepository(db, dialect),
    interactions: new SqlInteractionRepository(db, dialect),
    constituents: new SqlConstituentRepository(db, dialect),
    householdMatches: new SqlHouseholdMatchRepository(db, dialect),
    refreshTokens: new SqlRefreshTokenRepository(db, dialect),
    loginAttempts: new SqlLoginAttemptRepository(db, dialect),
    invitations: new SqlInvitationRepository(db, dialect),
    emailSettings: new SqlEmailSettingsRepository(db, dialect),
    outbox: new SqlOutboxRepository(db, dialect),
    smsOptOuts: new SqlSmsOptOutRepository(db, dialect),
  }
}
