import { InvalidError } from '../../domain/errors'
import { PASSWORD_RESET_LIFETIME_MS, oneTimeLink } from '../../domain/members/invitation'
import { maySignIn, normalizeEmail, type Member } from '../../domain/members/member'
import { sendWindowStart, type SendLimits } from '../../domain/messaging/send-limits'
import { EMAIL, EMAIL_MEANING, FieldChecks } from '../../domain/shared/fields'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { DeferredWork } from '../ports/deferred-work'
import type { IdGenerator } from '../ports/ids'
import type { Repositories } from '../ports/repositories'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'
import { issueLinkToken } from '../members/one-time-links'
import { RedeemPasswordLink, type PasswordLinkKind } from './password-link'
import type { AuditTrail } from '../audit/audit-trail'

// docs/api/access.md "Tokens": a forgotten password, without an operator.

/**
 * Asks for a link to choose a new password. Says nothing of whether the email is known, and does the same
 * work either way: the request is only handed on (`PasswordResetLinks`), to run after the answer, so
 * neither the answer nor its time depends on the email. The link is always on PUBLIC_BASE_URL: an anonymous
 * caller chooses nothing of where a token goes.
 */
export class RequestPasswordReset {
  constructor(
    private readonly later: DeferredWork,
    private readonly links: PasswordResetLinks,
  ) {}

  async execute(input: PasswordResetRequest): Promise<void> {
    const checks = new FieldChecks().text('/email', input.email, EMAIL, { meaning: EMAIL_MEANING, trim: true })
    InvalidError.throwIfAny(checks.errors, 'The request is not valid')
    this.later.defer('password reset', () => this.links.send(input))
  }
}

export interface PasswordResetRequest {
  email: string
}

/**
 * Sends every confirmed member with this email (one per organization it belongs to) a one-time link to choose
 * a new password, valid for an hour, stored only as a digest; except a member already sent
 * `passwordResetMailsPerHour` links within the hour, who is sent nothing more.
 */
export class PasswordResetLinks {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly publicBaseUrl: string,
    private readonly audit: AuditTrail,
    private readonly limits: SendLimits,
  ) {}

  async send(input: PasswordResetRequest): Promise<void> {
    const now = this.clock.now()
    await this.unitOfWork.run(async (r) => {
      const members = (await r.members.findAllByEmail(normalizeEmail(input.email))).filter(maySignIn)
      // Organizations locked in one order, so two requests for the same email cannot wait on each other.
      members.sort((a, b) => (a.organizationId < b.organizationId ? -1 : a.organizationId > b.organizationId ? 1 : 0))
      for (const member of members) {
        if (await this.limitReached(r, member, now)) continue
        const token = await issueLinkToken(
          r,
          { secrets: this.secrets, ids: this.ids },
          member,
          'password_reset',
          now,
          PASSWORD_RESET_LIFETIME_MS,
        )
        // Anonymous: whoever asked is not known, only whose password the link would reset.
        await this.audit.record(
          r,
          { organizationId: member.organizationId },
          { action: 'request_password_reset', recordType: 'member', recordId: member.id },
        )
        const organization = await r.organizations.findById(member.organizationId)
        await this.outbox.email(r, member.organizationId, {
          template: 'password_reset',
          to: member.email,
          subject: `Choose a new password for ${organization?.name ?? 'the intake service'}`,
          text: [
            `Hello${member.fullName ? ` ${member.fullName}` : ''},`,
            '',
            'Someone asked to reset your password. Choose a new one here within an hour:',
            oneTimeLink(new URL(this.publicBaseUrl), 'reset-password', token),
            '',
            'The link works once. Your other sessions end when you use it. If you did not ask, ignore this message.',
          ].join('\n'),
        })
      }
    })
  }

  /** Counted from the member's `request_password_reset` events after locking its organization's row, so it holds across instances. */
  private async limitReached(r: Repositories, member: Member, now: Date): Promise<boolean> {
    await r.organizations.lockForUpdate(member.organizationId)
    const sent = await r.auditEvents.tally(member.organizationId, {
      action: 'request_password_reset',
      recordType: 'member',
      recordId: member.id,
      since: sendWindowStart(now),
    })
    return sent.count >= this.limits.passwordResetMailsPerHour
  }
}

/** Sets the new password from a reset link, ends the member's other sessions and logs it in. */
export class ResetPassword extends RedeemPasswordLink {
  protected readonly kind: PasswordLinkKind = {
    purpose: 'password_reset',
    accepts: maySignIn,
    refusal: 'This link is unknown, already used or expired: ask for a new one',
    withPassword: (member, passwordHash) => ({ ...member, passwordHash }),
    endsOtherSessions: true,
    audit: { action: 'reset_password', fields: ['password'] },
  }
}
