import type { Actor } from '../../domain/auth/actor'
import type { Profile, Role } from '../../domain/auth/roles'
import { InvalidError } from '../../domain/errors'
import { memberFieldErrors, normalizeEmail, type Member, type MemberView } from '../../domain/members/member'
import type { MailLanguage } from '../../domain/members/notifications'
import { assertMayGrantProfiles, assertMayManage, assertRoleFitsPartner } from '../../domain/members/member-rules'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import type { IdGenerator } from '../ports/ids'
import { phoneCountryOf } from '../organizations/phone-country'
import { normalizePhone } from '../../domain/shared/phone'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { InvitationMailer } from './invitation-mailer'
import { memberView, partnersById } from './member-view'
import type { AuditTrail } from '../audit/audit-trail'

// docs/api/access.md "Members and invitations"
export interface InviteMemberInput {
  email: string
  role: Role
  fullName?: string
  partnerId?: string
  phone?: string
  profiles?: Profile[]
  /** The language of the member's mails, the invitation first. */
  language?: MailLanguage
  /** Where the invitation link points; PUBLIC_BASE_URL when not given. */
  appUrl?: string
}

/** Adds an unconfirmed member and emails a one-time invitation, in the same transaction (through the outbox). */
export class InviteMember {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly invitations: InvitationMailer,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, input: InviteMemberInput): Promise<MemberView> {
    authorize(actor, 'members:manage')
    return this.unitOfWork.run(async (r) => {
      // A national phone number is read as one of the organization's country.
      const country = await phoneCountryOf(r, actor.organizationId)
      InvalidError.throwIfAny(memberFieldErrors(input, 'invite', country), 'The invitation has invalid fields')
      assertRoleFitsPartner(input.role, input.partnerId)
      assertMayManage(actor, input.role, input.partnerId)
      assertMayGrantProfiles(actor, [], input.profiles ?? [])
      const phone = input.phone === undefined ? undefined : normalizePhone(input.phone.trim(), country)
      const member: Member = {
        id: this.ids.next(),
        organizationId: actor.organizationId,
        email: normalizeEmail(input.email),
        role: input.role,
        profiles: [...new Set(input.profiles ?? [])],
        isConfirmed: false,
        createdAt: this.clock.now(),
        ...(input.fullName ? { fullName: input.fullName } : {}),
        ...(input.partnerId ? { partnerId: input.partnerId } : {}),
        ...(phone ? { phone } : {}),
        ...(input.language ? { language: input.language } : {}),
      }
      const partners = await partnersById(r, actor.organizationId)
      if (member.partnerId && !partners.has(member.partnerId))
        throw InvalidError.field('/partnerId', 'must name a partner of this organization')
      await r.members.insert(member) // a taken email is a ConflictError from the unique index
      await this.invitations.invite(r, member, input.appUrl)
      await this.audit.record(r, actor, { action: 'invite', recordType: 'member', recordId: member.id })
      return memberView(member, partners)
    })
  }
}
