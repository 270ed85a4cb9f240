import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import { isPartnerRole, type Profile, type Role } from '../../domain/auth/roles'
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors'
import { memberFieldErrors, type Member, type MemberView } from '../../domain/members/member'
import { assertMayGrantProfiles, assertMayManage, assertRoleFitsPartner } from '../../domain/members/member-rules'
import { authorize } from '../auth/authorize'
import type { UnitOfWork } from '../ports/unit-of-work'
import { memberView, partnersById } from './member-view'
import type { AuditTrail } from '../audit/audit-trail'

// docs/api.md "Permissions" and "Members and invitations"
/** A partial update: a field left out is unchanged; `phone: null` clears the phone. */
export interface UpdateMemberInput {
  role?: Role
  partnerId?: string
  /** `null` clears it. */
  phone?: string | null
  profiles?: Profile[]
}

export class UpdateMember {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string, input: UpdateMemberInput): Promise<MemberView> {
    authorize(actor, 'members:manage')
    InvalidError.throwIfAny(memberFieldErrors(input, 'update'), 'The member has invalid fields')
    return this.unitOfWork.run(async (r) => {
      const before = await r.members.findById(actor.organizationId, id)
      if (!before) throw new NotFoundError('Member')
      // Both who the member is and what it becomes must be within the actor's reach.
      assertMayManage(actor, before.role, before.partnerId)
      const role = input.role ?? before.role
      // A partner role keeps its partner unless told otherwise; other roles have none.
      const partnerId = input.partnerId ?? (isPartnerRole(role) ? before.partnerId : undefined)
      assertRoleFitsPartner(role, partnerId)
      assertMayManage(actor, role, partnerId)
      if (input.profiles) assertMayGrantProfiles(actor, before.profiles, input.profiles)
      const partners = await partnersById(r, actor.organizationId)
      if (partnerId && !partners.has(partnerId)) throw InvalidError.field('/partnerId', 'must name a partner of this organization')
      const losesAnAdmin = before.role === 'org_admin' && role !== 'org_admin' && before.isConfirmed
      if (losesAnAdmin) await r.organizations.lockForUpdate(actor.organizationId) // two admins demoting each other
      if (losesAnAdmin && (await r.members.countConfirmedByRole(actor.organizationId, 'org_admin')) <= 1) {
        throw new ConflictError('This is the last org_admin: make another member org_admin first')
      }
      const { partnerId: _old, phone: _phone, ...rest } = before
      const after: Member = {
        ...rest,
        role,
        profiles: input.profiles ? [...new Set(input.profiles)] : before.profiles,
        ...(partnerId ? { partnerId } : {}),
        ...(input.phone === undefined ? (before.phone ? { phone: before.phone } : {}) : input.phone === null ? {} : { phone: input.phone }),
      }
      await r.members.update(after)
      await this.audit.record(r, actor, { action: 'update', recordType: 'member', recordId: after.id, fields: changedFields(before, after) })
      return memberView(after, partners)
    })
  }
}
