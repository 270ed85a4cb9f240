import type { Actor } from '../../domain/auth/actor'
import { ConflictError, NotFoundError } from '../../domain/errors'
import type { MemberView } from '../../domain/members/member'
import { assertMayManage } from '../../domain/members/member-rules'
import { authorize } from '../auth/authorize'
import type { UnitOfWork } from '../ports/unit-of-work'
import type { InvitationMailer } from './invitation-mailer'
import { memberView, partnersById } from './member-view'
import type { AuditTrail } from '../audit/audit-trail'

/**
 * `POST /api/members/{id}/invitation` (an addition): a new invitation for a member who has not accepted
 * one yet, for when the first expired or was lost. Earlier links keep working until they expire.
 */
export class ResendInvitation {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly invitations: InvitationMailer,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, memberId: string, appUrl?: string): Promise<MemberView> {
    authorize(actor, 'members:manage')
    return this.unitOfWork.run(async (r) => {
      const member = await r.members.findById(actor.organizationId, memberId)
      if (!member) throw new NotFoundError('Member')
      assertMayManage(actor, member.role, member.partnerId)
      if (member.isConfirmed) throw new ConflictError('This member has already accepted an invitation and can log in')
      await this.invitations.invite(r, member, appUrl)
      await this.audit.record(r, actor, { action: 'invite', recordType: 'member', recordId: member.id })
      return memberView(member, await partnersById(r, actor.organizationId))
    })
  }
}
