import { InvalidError } from '../../domain/errors'
import { passwordErrors } from '../../domain/members/member'
import type { Clock } from '../ports/clock'
import type { PasswordHasher } from '../ports/password-hasher'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'
import { redeemLinkToken } from '../members/one-time-links'
import type { TokenPair, TokenPairIssuer } from './token-pair'
import type { AuditTrail } from '../audit/audit-trail'

/** docs/api.md "Tokens": the invited member sets a password, becomes confirmed and is logged in. A link works once. */
export class AcceptInvite {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly passwords: PasswordHasher,
    private readonly secrets: SecretTokens,
    private readonly tokens: TokenPairIssuer,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: { token: string; password: string }): Promise<TokenPair> {
    InvalidError.throwIfAny(passwordErrors(input.password), 'The password is not valid')
    const passwordHash = await this.passwords.hash(input.password)
    const now = this.clock.now()
    return this.unitOfWork.run(async (r) => {
      const member = await redeemLinkToken(r, this.secrets, input.token, undefined, now)
      if (!member) throw InvalidError.field('/token', 'This invitation is unknown, already used or expired: ask an administrator to send a new one')
      const confirmed = { ...member, passwordHash, isConfirmed: true }
      await r.members.update(confirmed)
      await this.audit.record(r, { organizationId: member.organizationId, memberId: member.id }, { action: 'accept_invite', recordType: 'member', recordId: member.id, fields: ['isConfirmed', 'password'] })
      return this.tokens.issue(r.refreshTokens, confirmed)
    })
  }
}
