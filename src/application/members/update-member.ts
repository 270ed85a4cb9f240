import { changedFields } from '../../domain/audit/audit-event'
import type { Actor } from '../../domain/auth/actor'
import { isPartnerRole, type Profile, type Role } from '../../domain/auth/roles'
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors'
import { maySignIn, memberFieldErrors, normalizeEmail, type Member, type MemberView } from '../../domain/members/member'
import { assertMayGrantProfiles, assertMayManage, assertRoleFitsPartner } from '../../domain/members/member-rules'
import { authorize } from '../auth/authorize'
import type { Clock } from '../ports/clock'
import { phoneCountryOf } from '../organizations/phone-country'
import { normalizePhone } from '../../domain/shared/phone'
import type { UnitOfWork } from '../ports/unit-of-work'
import { memberView, partnersById } from './member-view'
import type { AuditTrail } from '../audit/audit-trail'
import type { EmailChanges } from './email-changes'

// docs/api/access.md "Permissions" and "Members and invitations"
/** A partial update: a field left out is unchanged; `phone: null` clears the phone. */
export interface UpdateMemberInput {
  fullName?: string
  /** A new address: the member's once the link mailed to it is followed (docs/api/access.md "Changing an email"). */
  email?: string
  role?: Role
  partnerId?: string
  /** `null` clears it. */
  phone?: string | null
  profiles?: Profile[]
  /** false deactivates the member (`DELETE /api/members/{id}`), true restores its access with the same password. */
  active?: boolean
}

export class UpdateMember {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly emailChanges: EmailChanges,
  ) {}

  /** The member as changed; with `pendingEmail` when its new address was sent a link to confirm. */
  async execute(actor: Actor, id: string, input: UpdateMemberInput): Promise<MemberView & { pendingEmail?: string }> {
    authorize(actor, 'members:manage')
    return this.unitOfWork.run(async (r) => {
      // A national phone number is read as one of the organization's country.
      const country = await phoneCountryOf(r, actor.organizationId)
      InvalidError.throwIfAny(memberFieldErrors(input, 'update', country), 'The member has invalid fields')
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
      const deactivates = input.active === false && before.deactivatedAt === undefined
      if (deactivates && before.id === actor.memberId) throw new ConflictError('You cannot deactivate yourself: ask another org_admin')
      const losesAnAdmin = before.role === 'org_admin' && maySignIn(before) && (role !== 'org_admin' || deactivates)
      if (losesAnAdmin) await r.organizations.lockForUpdate(actor.organizationId) // two admins demoting each other
      if (losesAnAdmin && (await r.members.countSigningInByRole(actor.organizationId, 'org_admin')) <= 1) {
        throw new ConflictError('This is the last active org_admin: make another member org_admin first')
      }
      const now = this.clock.now()
      const { partnerId: _old, phone: _phone, deactivatedAt: _deactivated, ...rest } = before
      // Checked above: a phone given is one the rule reads.
      const phone =
        input.phone === undefined ? before.phone : input.phone === null ? undefined : normalizePhone(input.phone.trim(), country)
      const deactivatedAt = input.active === undefined ? before.deactivatedAt : input.active ? undefined : (before.deactivatedAt ?? now)
      const after: Member = {
        ...rest,
        ...(input.fullName === undefined ? {} : { fullName: input.fullName.trim() }),
        role,
        profiles: input.profiles ? [...new Set(input.profiles)] : before.profiles,
        ...(partnerId ? { partnerId } : {}),
        ...(phone ? { phone } : {}),
        ...(deactivatedAt ? { deactivatedAt } : {}),
      }
      if (deactivates) {
        // Every session ends now; the per-request member check refuses its access tokens already.
        await r.refreshTokens.revokeMember(actor.organizationId, before.id, now)
        await r.invitations.voidUnused(actor.organizationId, before.id, now)
      }
      await r.members.update(after)
      const changesMoreThanAccess = Object.keys(input).some((key) => key !== 'active' && key !== 'email')
      if (changesMoreThanAccess) {
        const fields = changedFields(before, after, ['deactivatedAt'])
        await this.audit.record(r, actor, { action: 'update', recordType: 'member', recordId: after.id, fields })
      }
      if (before.deactivatedAt !== after.deactivatedAt) {
        await this.audit.record(r, actor, {
          action: after.deactivatedAt ? 'deactivate' : 'reactivate',
          recordType: 'member',
          recordId: after.id,
        })
      }
      if (input.email === undefined || normalizeEmail(input.email) === after.email) return memberView(after, partners)
      if (after.deactivatedAt) throw new ConflictError("A deactivated member's email does not change: restore its access first")
      const change = await this.emailChanges.propose(r, actor, after, input.email)
      if (change.status === 'changed') return memberView({ ...after, email: change.email }, partners)
      return { ...memberView(after, partners), pendingEmail: change.email }
    })
  }
}
