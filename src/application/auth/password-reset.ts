import { InvalidError } from '../../domain/errors'
import { PASSWORD_RESET_LIFETIME_MS, oneTimeLink } from '../../domain/members/invitation'
import { normalizeEmail, passwordErrors } from '../../domain/members/member'
import { EMAIL, EMAIL_MEANING, FieldChecks } from '../../domain/shared/fields'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { PasswordHasher, SecretTokens } from '../ports/security'
import type { UnitOfWork } from '../ports/unit-of-work'
import { issueLinkToken, redeemLinkToken } from '../members/one-time-links'
import type { TokenPair, TokenPairIssuer } from './token-pair'
import type { AuditTrail } from '../audit/audit-trail'

// docs/api.md "Tokens": a forgotten password, without an operator.

/**
 * Sends every confirmed member with this email (one per organization it belongs to) a one-time link to choose
 * a new password, valid for an hour, stored only as a digest. Says nothing of whether the email is known:
 * the caller hears the same either way. The link is always on PUBLIC_BASE_URL: an anonymous caller chooses
 * nothing of where a token goes.
 */
export class RequestPasswordReset {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly publicBaseUrl: string,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: { email: string }): Promise<void> {
    const checks = new FieldChecks().text('/email', input.email, EMAIL, { meaning: EMAIL_MEANING, trim: true })
    InvalidError.throwIfAny(checks.errors, 'The request is not valid')
    const now = this.clock.now()
    await this.unitOfWork.run(async (r) => {
      const members = (await r.members.findAllByEmail(normalizeEmail(input.email))).filter((m) => m.isConfirmed)
      for (const member of members) {
        const token = await issueLinkToken(r, { secrets: this.secrets, ids: this.ids }, member, 'password_reset', now, PASSWORD_RESET_LIFETIME_MS)
        // Anonymous: whoever asked is not known, only whose password the link would reset.
        await this.audit.record(r, { organizationId: member.organizationId }, { action: 'request_password_reset', recordType: 'member', recordId: member.id })
        const organization = await r.organizations.findById(member.organizationId)
        await this.outbox.email(r, member.organizationId, {
          to: member.email,
          subject: `Choose a new password for ${organization?.name ?? 'the intake service'}`,
          text: [
            `Hello${member.fullName ? ` ${member.fullName}` : ''},`,
            '',
            'Someone asked to reset your password. Choose a new one here within an hour:',
            oneTimeLink(this.publicBaseUrl, 'reset-password', token),
            '',
            'The link works once. Your other sessions end when you use it. If you did not ask, ignore this message.',
          ].join('\n'),
        })
      }
    })
  }
}

/** Sets the new password from a reset link, ends the member's other sessions and logs it in. A link works once. */
export class ResetPassword {
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
      // Thrown after the token was used up, the error rolls that back with everything else.
      const member = await redeemLinkToken(r, this.secrets, input.token, 'password_reset', now)
      if (!member?.isConfirmed) throw InvalidError.field('/token', 'This link is unknown, already used or expired: ask for a new one')
      const updated = { ...member, passwordHash }
      await r.members.update(updated)
      await r.refreshTokens.revokeMember(member.organizationId, member.id, now)
      await this.audit.record(r, { organizationId: member.organizationId, memberId: member.id }, { action: 'reset_password', recordType: 'member', recordId: member.id, fields: ['password'] })
      return this.tokens.issue(r.refreshTokens, updated)
    })
  }
}
