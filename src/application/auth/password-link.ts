import type { AuditAction } from '../../domain/audit/audit-event'
import { InvalidError } from '../../domain/errors'
import { passwordErrors, type Member } from '../../domain/members/member'
import type { AuditTrail } from '../audit/audit-trail'
import { redeemLinkToken, type LinkPurpose } from '../members/one-time-links'
import type { Clock } from '../ports/clock'
import type { PasswordHasher } from '../ports/password-hasher'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { TokenPair, TokenPairIssuer } from './token-pair'

/** What one kind of one-time link does beside setting the password it is redeemed with. */
export interface PasswordLinkKind {
  purpose: LinkPurpose
  /** Whether the member the link names may still use it. */
  accepts(member: Member): boolean
  /** The `/token` message for a link that is unknown, used, expired or no longer accepted. */
  refusal: string
  /** The member with the new password and whatever else the link changes. */
  withPassword(member: Member, passwordHash: string): Member
  /** Whether the member's other sessions end (a reset: whoever had them may have had the password). */
  endsOtherSessions: boolean
  audit: { action: AuditAction; fields: string[] }
}

/**
 * Redeems a one-time link with a new password: the password checked and hashed, the link used up, the member
 * updated, audited and logged in, in one transaction (an error after the link was used rolls that back too).
 * A link works once. Accepting an invitation and resetting a password are the two kinds (docs/api/access.md "Tokens").
 */
export abstract class RedeemPasswordLink {
  protected abstract readonly kind: PasswordLinkKind

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
    const { kind } = this
    return this.unitOfWork.run(async (r) => {
      const member = await redeemLinkToken(r, this.secrets, input.token, kind.purpose, now)
      if (!member || !kind.accepts(member)) throw InvalidError.field('/token', kind.refusal)
      const updated = kind.withPassword(member, passwordHash)
      await r.members.update(updated)
      if (kind.endsOtherSessions) await r.refreshTokens.revokeMember(member.organizationId, member.id, now)
      await this.audit.record(
        r,
        { organizationId: member.organizationId, memberId: member.id },
        { ...kind.audit, recordType: 'member', recordId: member.id },
      )
      return this.tokens.issue(r, updated)
    })
  }
}
