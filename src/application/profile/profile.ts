import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import { InvalidError, NotFoundError } from '../../domain/errors'
import { allowedPermissions, type Permission } from '../../domain/auth/permissions'
import type { Profile as GrantedProfile, Role } from '../../domain/auth/roles'
import { profileFieldErrors, type Member, type ProfileFields } from '../../domain/members/member'
import { notificationsOf, type MailLanguage, type NotificationPreferences } from '../../domain/members/notifications'
import { authorize } from '../auth/authorize'
import type { Repositories } from '../ports/repositories'
import { phoneCountryOf } from '../organizations/phone-country'
import { normalizePhone } from '../../domain/shared/phone'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { AuditTrail } from '../audit/audit-trail'

export interface Profile {
  id: string
  email: string
  fullName?: string
  phone?: string
  role: Role
  partnerId?: string
  profiles: GrantedProfile[]
  /** What the member may do by the permissions table: a client shows only these controls (the server still decides). */
  permissions: Permission[]
  /** The language of the member's mails. */
  language: MailLanguage
  /** What the member is mailed about: its choices over its role's defaults. */
  notifications: NotificationPreferences
}

function profileOf(member: Member): Profile {
  return {
    id: member.id,
    email: member.email,
    ...(member.fullName ? { fullName: member.fullName } : {}),
    ...(member.phone ? { phone: member.phone } : {}),
    role: member.role,
    ...(member.partnerId ? { partnerId: member.partnerId } : {}),
    profiles: member.profiles,
    permissions: allowedPermissions(member),
    language: member.language ?? 'en',
    notifications: notificationsOf(member),
  }
}

export class GetProfile {
  constructor(private readonly repositories: Repositories) {}

  async execute(actor: Actor): Promise<Profile> {
    authorize(actor, 'profile:read')
    const member = await this.repositories.members.findById(actor.organizationId, actor.memberId)
    if (!member) throw new NotFoundError('Member')
    return profileOf(member)
  }
}

/** The caller's own name, phone, language and notifications; `phone` left out keeps it, `null` clears it. */
export class UpdateProfile {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditTrail,
  ) {}

  /** A partial update: a field left out is unchanged; `phone: null` clears the phone; `notifications` changes the kinds it names. */
  async execute(actor: Actor, input: ProfileFields): Promise<Profile> {
    authorize(actor, 'profile:update')
    return this.unitOfWork.run(async (r) => {
      // A national phone number is read as one of the organization's country.
      const country = await phoneCountryOf(r, actor.organizationId)
      InvalidError.throwIfAny(profileFieldErrors(input, country), 'The profile has invalid fields')
      const member = await r.members.findById(actor.organizationId, actor.memberId)
      if (!member) throw new NotFoundError('Member')
      const { phone: _phone, ...rest } = member
      const phone =
        input.phone === undefined ? member.phone : input.phone === null ? undefined : normalizePhone(input.phone.trim(), country)
      const fullName = input.fullName?.trim() ?? member.fullName
      const updated: Member = {
        ...rest,
        ...(fullName ? { fullName } : {}),
        ...(phone ? { phone } : {}),
        ...(input.language ? { language: input.language } : {}),
        ...(input.notifications ? { notifications: { ...member.notifications, ...input.notifications } } : {}),
      }
      await r.members.update(updated)
      await this.audit.record(r, actor, {
        action: 'update',
        recordType: 'member',
        recordId: member.id,
        fields: changedFields(member, updated),
      })
      return profileOf(updated)
    })
  }
}
