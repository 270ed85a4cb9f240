import { ConflictError, InvalidError } from '../../domain/errors'
import { EMAIL_CHANGE_LIFETIME_MS, oneTimeLink } from '../../domain/members/invitation'
import { FIRST_START_ADMIN_EMAIL, normalizeEmail, type Member } from '../../domain/members/member'
import { EMAIL, EMAIL_MEANING, FieldChecks } from '../../domain/shared/fields'
import type { AuditSubject, AuditTrail } from '../audit/audit-trail'
import type { Outbox } from '../messaging/outbox'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import { UNIQUE_CONFLICTS, type Repositories } from '../ports/repositories'
import type { SecretTokens } from '../ports/secret-tokens'
import type { UnitOfWork } from '../ports/unit-of-work'
import { EMAIL_CHANGE_MAIL } from './email-change-mail'
import { findLinkToken, issueLinkToken } from './one-time-links'

// docs/api/access.md "Changing an email"

/** `confirmation_sent`: the new address has a link to follow, and the email is unchanged until it does. */
export interface EmailChangeOutcome {
  status: 'confirmation_sent' | 'changed'
  email: string
}

/**
 * A member's new address, asked by the member or by who may change the member, inside the caller's transaction.
 * The address is the member's only once it is proven: a one-time link (24 hours, stored as a digest) goes to the
 * new address, and a notice to the old one. A later request voids the links of earlier ones. The first start's
 * made-up address (`FIRST_START_ADMIN_EMAIL`) reaches no one, so a change away from it is made at once.
 */
export class EmailChanges {
  constructor(
    private readonly outbox: Outbox,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly publicBaseUrl: string,
    private readonly audit: AuditTrail,
  ) {}

  async propose(r: Repositories, who: AuditSubject, member: Member, requested: string): Promise<EmailChangeOutcome> {
    const checks = new FieldChecks().text('/email', requested, EMAIL, { meaning: EMAIL_MEANING, trim: true })
    InvalidError.throwIfAny(checks.errors, 'The email is not valid')
    const email = normalizeEmail(requested)
    if (email === member.email) throw InvalidError.field('/email', 'is the email the member has already')
    if (await r.members.findByEmail(member.organizationId, email)) throw new ConflictError(UNIQUE_CONFLICTS.memberEmail)
    const now = this.clock.now()
    await r.invitations.voidUnused(member.organizationId, member.id, now, 'email_change')
    const audited = { recordType: 'member', recordId: member.id, fields: ['email'] } as const
    if (member.email === FIRST_START_ADMIN_EMAIL) {
      await r.members.update({ ...member, email })
      await this.audit.record(r, who, { action: 'change_email', ...audited })
      return { status: 'changed', email }
    }
    const token = await issueLinkToken(
      r,
      { secrets: this.secrets, ids: this.ids },
      member,
      'email_change',
      now,
      EMAIL_CHANGE_LIFETIME_MS,
      email,
    )
    const words = EMAIL_CHANGE_MAIL[member.language ?? 'en']
    const name = (await r.organizations.findById(member.organizationId))?.name ?? words.yourOrganization
    const hello = [words.hello(member.fullName), '']
    const link = oneTimeLink(new URL(this.publicBaseUrl), 'confirm-email', token)
    await this.outbox.email(r, member.organizationId, {
      template: 'email_change',
      to: email,
      subject: words.confirmSubject(name),
      text: [...hello, ...words.confirm(name, link)].join('\n'),
    })
    await this.outbox.email(r, member.organizationId, {
      template: 'email_change_notice',
      to: member.email,
      subject: words.noticeSubject(name),
      text: [...hello, ...words.notice(name, email)].join('\n'),
    })
    await this.audit.record(r, who, { action: 'request_email_change', ...audited })
    return { status: 'confirmation_sent', email }
  }
}

/**
 * Follows an email change's link: the member's email becomes the address the link was sent to, the link used up,
 * in one transaction. 400 at `/token` for a link unknown, used, expired or of a deactivated member; 409 when
 * another member of the organization took the address meanwhile. The member's sessions go on: the password
 * proves who they are, not the address.
 */
export class ConfirmEmailChange {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(input: { token: string }): Promise<{ email: string }> {
    const now = this.clock.now()
    return this.unitOfWork.run(async (r) => {
      const found = await findLinkToken(r, this.secrets, input.token, 'email_change', now)
      const email = found && found.member.deactivatedAt === undefined ? found.link.email : undefined
      if (!found || !email || !(await r.invitations.markUsed(found.link.id, now)))
        throw InvalidError.field('/token', 'This link is unknown, already used or expired')
      const { member } = found
      await r.members.update({ ...member, email })
      await this.audit.record(
        r,
        { organizationId: member.organizationId, memberId: member.id },
        { action: 'change_email', recordType: 'member', recordId: member.id, fields: ['email'] },
      )
      return { email }
    })
  }
}
