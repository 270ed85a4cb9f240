import { InvalidError } from '../../domain/errors'
import { PASSWORD_RESET_LIFETIME_MS, passwordResetLink } from '../../domain/members/invitation'
import { normalizeEmail, passwordErrors } from '../../domain/members/member'
import { EMAIL, EMAIL_MEANING, FieldChecks, HTTP_URL } from '../../domain/shared/fields'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import type { PasswordHasher, SecretTokens } from '../ports/security'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { TokenPair, TokenPairIssuer } from './token-pair'

// docs/api.md "Tokens": a forgotten password, without an operator.

/**
 * Sends every confirmed member with this email (one per organization it belongs to) a one-time link to choose
 * a new password, valid for an hour, stored only as a digest. Says nothing of whether the email is known:
 * the caller hears the same either way.
 */
export class RequestPasswordReset {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly publicBaseUrl: string,
  ) {}

  async execute(input: { email: string; appUrl?: string }): Promise<void> {
    const checks = new FieldChecks()
      .text('/email', input.email, EMAIL, { meaning: EMAIL_MEANING, trim: true })
      .text('/appUrl', input.appUrl, HTTP_URL, { presence: 'optional', meaning: 'an http(s) URL' })
    InvalidError.throwIfAny(checks.errors, 'The request is not valid')
    const now = this.clock.now()
    await this.unitOfWork.run(async (r) => {
      const members = (await r.members.findAllByEmail(normalizeEmail(input.email))).filter((m) => m.isConfirmed)
      for (const member of members) {
        const token = this.secrets.generate()
        await r.invitations.insert({
          id: this.ids.next(),
          organizationId: member.organizationId,
          memberId: member.id,
          tokenDigest: this.secrets.digest(token),
          createdAt: now,
          expiresAt: new Date(now.getTime() + PASSWORD_RESET_LIFETIME_MS),
          purpose: 'password_reset',
        })
        const organization = await r.organizations.findById(member.organizationId)
        await this.outbox.email(r, member.organizationId, {
          to: member.email,
          subject: `Choose a new password for ${organization?.name ?? 'the intake service'}`,
          text: [
            `Hello${member.fullName ? ` ${member.fullName}` : ''},`,
            '',
            'Someone asked to reset your password. Choose a new one here within an hour:',
            passwordResetLink(input.appUrl ?? this.publicBaseUrl, token),
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
  ) {}

  async execute(input: { token: string; password: string }): Promise<TokenPair> {
    InvalidError.throwIfAny(passwordErrors(input.password), 'The password is not valid')
    const passwordHash = await this.passwords.hash(input.password)
    const now = this.clock.now()
    return this.unitOfWork.run(async (r) => {
      const reset = await r.invitations.findByDigest(this.secrets.digest(input.token))
      const member = reset ? await r.members.findById(reset.organizationId, reset.memberId) : undefined
      const usable = reset && reset.purpose === 'password_reset' && member?.isConfirmed && !reset.usedAt && reset.expiresAt > now
      if (!usable || !(await r.invitations.markUsed(reset.id, now))) {
        throw InvalidError.field('/token', 'This link is unknown, already used or expired: ask for a new one')
      }
      const updated = { ...member, passwordHash }
      await r.members.update(updated)
      await r.refreshTokens.revokeMember(member.organizationId, member.id, now)
      return this.tokens.issue(r.refreshTokens, updated)
    })
  }
}
