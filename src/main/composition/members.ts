import { AuditTrail } from '../../application/audit/audit-trail'
import { InvitationMailer } from '../../application/members/invitation-mailer'
import { InviteMember } from '../../application/members/invite-member'
import { ListMembers } from '../../application/members/list-members'
import { ResendInvitation } from '../../application/members/resend-invitation'
import { UpdateMember } from '../../application/members/update-member'
import { Outbox } from '../../application/messaging/outbox'
import { GetProfile, UpdateProfile } from '../../application/profile/profile'
import { area } from './area'
import { PORTS } from './ports'

const { repositories, unitOfWork, clock, ids } = PORTS

export const members = area('members', ({ service }) => {
  service(InvitationMailer, [Outbox, PORTS.secrets, clock, ids, PORTS.publicBaseUrl])
  return {
    invite: service(InviteMember, [unitOfWork, InvitationMailer, clock, ids, AuditTrail]),
    update: service(UpdateMember, [unitOfWork, AuditTrail, clock]),
    resend: service(ResendInvitation, [unitOfWork, InvitationMailer, AuditTrail]),
    list: service(ListMembers, [repositories]),
    getProfile: service(GetProfile, [repositories]),
    updateProfile: service(UpdateProfile, [unitOfWork, AuditTrail]),
  }
})
